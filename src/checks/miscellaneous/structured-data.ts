import { capItems, defineCheck } from '../check.ts';
import { readJsonLd, shortTypeName } from './json-ld.ts';
import { Int, List, Obj, OneOf, Str } from '../value-schema.ts';

const MAX_TYPES = 50;

const StructuredDataValue = Obj({
  formats: List(OneOf(['json-ld', 'microdata', 'rdfa', 'open_graph'])),
  types: List(Str()),
  type_count: Int(),
  json_ld_blocks: Int(),
  invalid_json_ld_blocks: Int(),
});

export const structuredDataCheck = defineCheck<typeof StructuredDataValue>({
  id: 'structured_data',
  category: 'miscellaneous',
  importance: 'medium',
  title: 'The page has valid structured data',
  failureTitle: 'Structured data is missing or invalid',
  description:
    'Structured data (schema.org JSON-LD, microdata, RDFa) and Open Graph tags tell search engines and social networks what the page is about, making it eligible for rich results and good link previews.',
  howToFix:
    'Add a `<script type="application/ld+json">` block with `"@context": "https://schema.org"` and the right `@type` (Article, Product, Organization, ...), and fix any block that is not valid JSON.',
  labels: {
    formats: 'Formats', types: 'Types', type_count: 'Types found', json_ld_blocks: 'JSON-LD blocks',
    invalid_json_ld_blocks: 'Invalid JSON-LD blocks', missing: 'No structured data', invalid_json: 'JSON-LD blocks that are not valid JSON',
    wrong_context: 'JSON-LD blocks without a schema.org @context', index: 'Block number', error: 'Problem', context: '@context',
  },
  value: StructuredDataValue,
  run({ snapshot }) {
    const types: string[] = [];
    const invalidJson: { index: number; error: string }[] = [];
    const wrongContext: { index: number; context: unknown }[] = [];
    snapshot.jsonLd.forEach((block, index) => {
      const reading = readJsonLd(block);
      if (reading.kind === 'invalid_json') invalidJson.push({ index, error: reading.message });
      else {
        types.push(...reading.types);
        if (reading.kind === 'wrong_context') wrongContext.push({ index, context: reading.context });
      }
    });
    const microdata = snapshot.microdataTypes.flatMap(typeTokens).map(lastPathSegment);
    const rdfa = snapshot.rdfaTypes.flatMap(typeTokens).map(rdfaTypeName);
    types.push(...microdata, ...rdfa);
    const openGraph = snapshot.metas.some((meta) => meta.property?.startsWith('og:') && meta.content?.trim());

    const formats: ('json-ld' | 'microdata' | 'rdfa' | 'open_graph')[] = [];
    if (snapshot.jsonLd.length > 0) formats.push('json-ld');
    if (snapshot.microdataTypes.length > 0) formats.push('microdata');
    // RDFa is as valid a schema.org syntax as microdata for search engines, so it counts too.
    if (snapshot.rdfaTypes.length > 0) formats.push('rdfa');
    if (openGraph) formats.push('open_graph');

    const uniqueTypes = [...new Set(types.filter((type) => type !== ''))];
    const value = {
      formats,
      types: capItems(uniqueTypes, MAX_TYPES),
      type_count: uniqueTypes.length,
      json_ld_blocks: snapshot.jsonLd.length,
      invalid_json_ld_blocks: invalidJson.length + wrongContext.length,
    };
    const errors: Record<string, unknown[]> = {};
    if (formats.length === 0) errors.missing = ['JSON-LD, microdata, RDFa or Open Graph'];
    if (invalidJson.length > 0) errors.invalid_json = capItems(invalidJson);
    if (wrongContext.length > 0) errors.wrong_context = capItems(wrongContext);
    if (Object.keys(errors).length === 0) return { passed: true, value, errors: null };
    return { passed: false, value, errors };
  },
});

function typeTokens(attribute: string): string[] {
  return attribute.split(/\s+/).filter((token) => token !== '');
}

/** "https://schema.org/Product" → "Product" (a trailing slash or fragment tolerated). */
function lastPathSegment(itemtype: string): string {
  const trimmed = itemtype.replace(/[/#]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('#')) + 1);
}

/** "schema:Article", "Article" or a full IRI → "Article". */
function rdfaTypeName(token: string): string {
  return /^[a-z][\w-]*:(?!\/\/)/i.test(token) ? token.slice(token.indexOf(':') + 1) : lastPathSegment(shortTypeName(token));
}
