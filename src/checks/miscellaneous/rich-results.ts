import { capItems, defineCheck, notApplicable } from '../check.ts';
import { judgeStructuredData } from '../../structured/judge.ts';
import { richResultFeatureCatalogue } from '../../structured/rich-result-features.ts';
import { schemaOrg } from '../../structured/vocabulary.ts';
import type { RichResultEntry, RichResultFinding } from '../../structured/structured-types.ts';
import { Int, List, Obj, Str } from '../value-schema.ts';

/** Items listed per kind of error. */
const MAX_ITEMS_PER_KIND = 50;

const RichResultsValue = Obj({
  schema_org_version: Str({ description: 'The schema.org release the items are validated against' }),
  eligible: List(Str(), 'Features with at least one valid item'),
  ineligible: List(Str(), 'Features with at least one item that has errors'),
  retired: List(Str(), 'Retired features found (never judged)'),
  errors: Int(),
  warnings: Int(),
});

interface ErrorItem {
  feature: string;
  type: string;
  property: string;
  message: string;
  line: number;
  value?: string;
}

const sortedNames = (entries: readonly RichResultEntry[]) => [...new Set(entries.map((entry) => entry.feature))].sort();

export const richResultsCheck = defineCheck<typeof RichResultsValue>({
  id: 'rich_results',
  category: 'miscellaneous',
  importance: 'medium',
  title: 'Structured data meets Google\'s rich-result requirements',
  failureTitle: 'Structured data lacks what Google requires for rich results',
  description:
    'Google shows a rich result (product stars and prices, breadcrumbs, event dates, recipes, ...) only for items that have every property its documentation requires for that feature, with values of the right form.',
  howToFix:
    'Add each missing required property and correct each wrong value at the line given (a price as a plain number, dates in ISO 8601, absolute URLs); recommended properties are warnings and can wait.',
  docsNote:
    'Items are matched against the 17 current Google features by their type; FAQ, HowTo, the sitelinks search box and the other features Google retired are listed in the value, never failed. Each feature\'s requirements, and the date they were read from Google\'s documentation, are in docs/structured-data.md.',
  labels: {
    schema_org_version: 'schema.org release', eligible: 'Eligible features', ineligible: 'Features with errors', retired: 'Retired features found', errors: 'Errors', warnings: 'Warnings',
    missing_property: 'Required properties missing', invalid_value: 'Values Google does not accept',
    feature: 'Feature', type: 'Type', property: 'Property', message: 'Problem', value: 'Value', line: 'Line',
  },
  value: RichResultsValue,
  catalogue: { schema_org_version: schemaOrg.version, features: richResultFeatureCatalogue() },
  run({ snapshot }) {
    const { extraction, richResults } = judgeStructuredData(snapshot);
    if (!extraction.present) return notApplicable('no structured data');
    if (richResults.length === 0) return notApplicable('no item of a Google rich-result type');
    const current = richResults.filter((entry) => entry.retired === null);
    const value = {
      schema_org_version: schemaOrg.version,
      eligible: sortedNames(current.filter((entry) => entry.valid === true)),
      ineligible: sortedNames(current.filter((entry) => entry.valid === false)),
      retired: sortedNames(richResults.filter((entry) => entry.retired !== null)),
      errors: richResults.reduce((sum, entry) => sum + entry.errors.length, 0),
      warnings: richResults.reduce((sum, entry) => sum + entry.warnings.length, 0),
    };
    if (current.length === 0) return notApplicable(`only retired rich-result types (${value.retired.join(', ')})`, value);
    const missing: ErrorItem[] = [];
    const invalid: ErrorItem[] = [];
    for (const entry of current) {
      for (const finding of entry.errors) (finding.kind === 'missing_property' ? missing : invalid).push(errorItem(entry, finding));
    }
    if (missing.length === 0 && invalid.length === 0) return { passed: true, value, errors: null };
    const errors: Record<string, ErrorItem[]> = {};
    if (missing.length > 0) errors.missing_property = capItems(missing, MAX_ITEMS_PER_KIND);
    if (invalid.length > 0) errors.invalid_value = capItems(invalid, MAX_ITEMS_PER_KIND);
    return { passed: false, value, errors };
  },
});

function errorItem(entry: RichResultEntry, { property, message, line, value }: RichResultFinding): ErrorItem {
  const item: ErrorItem = { feature: entry.feature, type: entry.type, property, message, line };
  if (value !== undefined) item.value = value;
  return item;
}
