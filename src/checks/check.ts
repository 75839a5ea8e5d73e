// What a check is: metadata for people plus a pure `run` over the fetched and parsed page.
import type { Static, TSchema } from '@sinclair/typebox';
import type { FetchedPage, OriginFacts } from '../fetch/types.ts';
import type { PageSnapshot } from '../parse/page-snapshot.ts';
import type { RobotsTxt } from '../robots/types.ts';
import type { Rendered } from '../render/compare-rendered.ts';
import type { LabAudit } from '../lab/lab-types.ts';
import type { FeatureCatalogueEntry } from '../structured/rich-result-features.ts';
import type { CheckThresholds } from './thresholds.ts';

export type Category = 'seo' | 'performance' | 'security' | 'miscellaneous' | 'accessibility';
export type Importance = 'high' | 'medium' | 'low';

/** Everything a check may look at. Checks do no I/O and read no clock or environment. */
export interface CheckContext {
  page: FetchedPage;
  origin: OriginFacts;
  snapshot: PageSnapshot;
  /** robots.txt parsed, when it answered 200; null otherwise (see origin.robotsTxt for why). */
  robots: RobotsTxt | null;
  thresholds: CheckThresholds;
  /** With render=1: the raw HTML against the DOM after JavaScript, or why the page could not be rendered. */
  rendered?: Rendered;
  /** With lab=1: what the lab audit measured in a browser, or why it could not observe the page. */
  lab?: LabAudit;
}

export type CheckErrors = Record<string, unknown[]>;

interface CatalogueFields {
  schema_org_version?: string;
  features?: readonly FeatureCatalogueEntry[];
}

/** What `run` returns (`V`: its value's type); the runner adds importance and category. */
export type CheckOutcome<V = unknown> =
  | { passed: boolean; value: V; errors?: CheckErrors | null }
  | { passed: null; value?: V; reason: string };

export interface CheckDefinition<V extends TSchema = TSchema> {
  /** The key in `results` (phpRank's result id where phpRank has the check, so its clients keep working). */
  id: string;
  category: Category;
  importance: Importance;
  /** Shown when the check passes: "Document has a title". */
  title: string;
  /** Shown when it fails: "Document has no usable title". */
  failureTitle: string;
  /** Why it matters, one or two sentences. */
  description: string;
  /** How to fix a failure, one or two sentences. */
  howToFix: string;
  /** Where this check deliberately judges otherwise than Lighthouse's audit of the same subject, and why (docs/checks.md). */
  differsFromLighthouse?: string;
  /** A paragraph for docs/checks.md under the check's entry (its limits, say); reports do not show it. */
  docsNote?: string;
  /** A page that says more than the description (an axe-core rule's: Deque's); docs/checks.md links it. */
  learnMoreUrl?: string;
  /**
   * Words for people for the field names of `value`, the kinds of `errors` and the fields of their items
   * ("unknown_urls" -> "Images of unknown format"): reports show these, never the names. Keys that are
   * data (tag, header and crawler names) need none. A test holds every check to having them.
   */
  labels?: Readonly<Record<string, string>>;
  /**
   * Fields the check's entry of GET /api/v1/checks carries besides the common ones (the structured-data
   * checks' `schema_org_version` and `features`); each must be in schemas/checks.ts.
   */
  catalogue?: Readonly<CatalogueFields>;
  /**
   * The JSON schema of `value` (value-schema.ts), whatever the outcome: it describes the check's
   * result in the OpenAPI document, and `run` is typed by it.
   */
  value: V;
  run(ctx: CheckContext): CheckOutcome<Static<V>>;
}

/**
 * Identity helper so each check file reads as one declaration, `run` held to its value schema. Give the
 * schema's type explicitly (`defineCheck<typeof TitleValue>({...})`): inferred, it would not type
 * `run`'s returns, and literal values would widen to string.
 */
export function defineCheck<V extends TSchema>(definition: CheckDefinition<V>): CheckDefinition {
  return definition;
}

/** Items listed per error kind; the full count goes into `value`. */
export const MAX_ERROR_ITEMS = 25;

/** Cap a list of offending items for `errors`. */
export function capItems<T>(items: readonly T[], max = MAX_ERROR_ITEMS): T[] {
  return items.length > max ? items.slice(0, max) : [...items];
}

/**
 * `capItems([...new Set(items.map(show))], max)`, calling `show` only until `max` distinct items are
 * found: showing an item (resolving its URL) costs more than the check that found it.
 */
export function firstDistinct<T>(items: readonly T[], show: (item: T) => string, max = MAX_ERROR_ITEMS): string[] {
  const shown = new Set<string>();
  for (const item of items) {
    if (shown.size >= max) break;
    shown.add(show(item));
  }
  return [...shown];
}

/** Not applicable (or could not be checked), with the reason shown to people. */
export function notApplicable<V = never>(reason: string, value?: V): CheckOutcome<V> {
  return value === undefined ? { passed: null, reason } : { passed: null, value, reason };
}
