import { defineCheck, notApplicable } from '../check.ts';
import { Int, List, Obj, OneOf, Str } from '../value-schema.ts';
import { judgeStructuredData } from '../../structured/judge.ts';
import type { ValidationFinding } from '../../structured/structured-types.ts';
import { schemaOrg } from '../../structured/vocabulary.ts';

/** Items listed per kind of finding; `value.errors` counts them all. */
const MAX_LISTED = 50;

const StructuredDataValidValue = Obj({
  schema_org_version: Str(),
  items: Int(),
  formats: List(OneOf(['json-ld', 'microdata', 'rdfa'])),
  errors: Int(),
});

export const structuredDataValidCheck = defineCheck<typeof StructuredDataValidValue>({
  id: 'structured_data_valid',
  category: 'miscellaneous',
  importance: 'medium',
  title: 'Structured data follows the schema.org vocabulary',
  failureTitle: 'Structured data breaks the schema.org vocabulary',
  description:
    'Search engines read only the structured data they understand: a JSON-LD block that is not JSON, a misspelt type or property, or a date, number or URL in the wrong form is ignored, and the page loses the rich results it was written for.',
  howToFix:
    'Fix each finding where its line says: make every JSON-LD block valid JSON with `"@context": "https://schema.org"` and a `@type`, spell types and properties as schema.org does (case matters), use properties of the item\'s type, and write values in the form expected (ISO 8601 dates and durations, plain numbers, absolute URLs, members such as `https://schema.org/InStock`).',
  docsNote:
    'Items of JSON-LD, microdata and RDFa Lite are judged against the schema.org release pagegrade ships (its `schema_org_version`), nested entities included. Only a few value rules give errors, because schema.org allows text where an entity is expected: dates, durations, numbers, booleans, URLs and enumeration members where the property takes nothing else, and an object where a data value or an entity of another type is wanted. Terms of other vocabularies are accepted and not judged. `structured_data` still says whether the page has structured data at all; `rich_results` says whether its items meet Google\'s requirements.',
  learnMoreUrl: 'https://schema.org/docs/datamodel.html',
  labels: {
    schema_org_version: 'schema.org release', items: 'Items', formats: 'Formats', errors: 'Findings',
    invalid_json: 'JSON-LD blocks that are not valid JSON', wrong_context: 'JSON-LD without a schema.org @context',
    missing_type: 'JSON-LD without @type or @graph', unknown_type: 'Types schema.org does not define',
    unknown_property: 'Properties not of their type', invalid_value: 'Values of the wrong kind',
    message: 'Problem', context: '@context', format: 'Format', type: 'Type', property: 'Property', value: 'Value', expected: 'Expected',
  },
  catalogue: { schema_org_version: schemaOrg.version },
  value: StructuredDataValidValue,
  run({ snapshot }) {
    const { extraction, validation } = judgeStructuredData(snapshot);
    if (!extraction.present) return notApplicable('the page has no structured data');
    const value = { schema_org_version: schemaOrg.version, items: extraction.items.length, formats: extraction.formats, errors: validation.length };
    if (validation.length === 0) return { passed: true, value, errors: null };
    const errors: Record<string, unknown[]> = {};
    for (const finding of validation) {
      const items = (errors[finding.kind] ??= []);
      if (items.length < MAX_LISTED) items.push(listedItem(finding));
    }
    return { passed: false, value, errors };
  },
});

/** A finding as `errors` lists it: its fields without the kind, which keys the list. */
function listedItem(finding: ValidationFinding): Record<string, unknown> {
  const { kind: _kind, ...item } = finding;
  return item;
}
