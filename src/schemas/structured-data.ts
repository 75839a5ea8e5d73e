// The schema of a report's and a run's `structured_data` (docs/structured-data.md): the page's items,
// one rich-result entry per item and Google feature with its errors and warnings, and the counts;
// null when the page has no structured data.
import { Type } from '@sinclair/typebox';
import { oneOf } from './common.ts';

const count = Type.Integer({ minimum: 0 });
const line = Type.Integer({ minimum: 1, description: 'The 1-based line in the HTML as served.' });

const Finding = Type.Object({
  property: Type.String({ description: 'The property path from the item (offers.price; a|b for "one of"; @type for the item itself).' }),
  message: Type.String({ description: 'What is wrong, the same sentence on every page.' }),
  value: Type.Optional(Type.String({ description: 'The offending value as written, at most 100 characters (wrong values only).' })),
  line,
});

const Item = Type.Object({
  format: oneOf(['json-ld', 'microdata', 'rdfa'] as const),
  type: Type.String({ description: 'Its types without the schema.org namespace, joined by a space; other vocabularies as written.' }),
  line,
});

const Entry = Type.Object({
  feature: Type.String({ description: 'The Google rich-result feature (Product snippets, Breadcrumb, ...).' }),
  type: Type.String(),
  line,
  valid: Type.Union([Type.Boolean(), Type.Null()], { description: 'No error; null for a retired feature.' }),
  retired: Type.Union([Type.String(), Type.Null()], { description: 'The date Google retired the feature; null for a current one.' }),
  errors: Type.Array(Finding, { maxItems: 50, description: 'Required properties missing or wrong, at most 50.' }),
  warnings: Type.Array(Finding, { maxItems: 50, description: 'Recommended properties missing or wrong, at most 50.' }),
});

const StructuredDataObject = Type.Object({
  schema_org_version: Type.String({ description: 'The schema.org release the items are validated against.' }),
  items: Type.Array(Item, { maxItems: 200, description: 'Top-level items in document order, at most 200.' }),
  rich_results: Type.Array(Entry, { maxItems: 200, description: 'One entry per item and feature, at most 200.' }),
  errors: Type.Integer({ minimum: 0, description: 'Rich-result errors over every entry.' }),
  warnings: count,
  validation_errors: Type.Integer({ minimum: 0, description: 'Findings of the check structured_data_valid.' }),
});

export const StructuredData = Type.Union([StructuredDataObject, Type.Null()], {
  description: 'The structured data of the page (schema.org items and Google rich results); null when it has none, before the first run, and for runs made before pagegrade judged it.',
});
