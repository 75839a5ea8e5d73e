// What a check is: metadata for people plus a pure `run` over the fetched and parsed page.
import type { FetchedPage, OriginFacts } from '../fetch/types.ts';
import type { PageSnapshot } from '../parse/page-snapshot.ts';
import type { RobotsTxt } from '../robots/types.ts';
import type { CheckThresholds } from './thresholds.ts';

export type Category = 'seo' | 'performance' | 'security' | 'miscellaneous';
export type Importance = 'high' | 'medium' | 'low';

/** Everything a check may look at. Checks do no I/O and read no clock or environment. */
export interface CheckContext {
  page: FetchedPage;
  origin: OriginFacts;
  snapshot: PageSnapshot;
  /** robots.txt parsed, when it answered 200; null otherwise (see origin.robotsTxt for why). */
  robots: RobotsTxt | null;
  thresholds: CheckThresholds;
}

export type CheckErrors = Record<string, unknown[]>;

/** What `run` returns; the runner adds importance and category. */
export type CheckOutcome =
  | { passed: boolean; value: unknown; errors?: CheckErrors | null }
  | { passed: null; value?: unknown; reason: string };

export interface CheckDefinition {
  /** The key in `results`: exactly the id of CHECKS.md. */
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
  run(ctx: CheckContext): CheckOutcome;
}

/** Identity helper so each check file reads as one declaration with its types checked. */
export function defineCheck(definition: CheckDefinition): CheckDefinition {
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
export function notApplicable(reason: string, value?: unknown): CheckOutcome {
  return value === undefined ? { passed: null, reason } : { passed: null, value, reason };
}
