import { describe, expect, it } from 'vitest';
import { makeContext, makeSnapshot } from '../../../test/support/check-context.ts';
import { PageText } from '../../fetch/page-text.ts';
import type { PageSnapshot } from '../../parse/page-snapshot.ts';
import { parsePage } from '../../parse/parse-page.ts';
import type { JsonLdProblem, StructuredExtraction, StructuredNode, StructuredValue } from '../../structured/structured-types.ts';
import { structuredDataValidCheck } from './structured-data-valid.ts';

const text = (value: string, line: number): StructuredValue => ({ kind: 'text', text: value, line });

function node(type: string, properties: Record<string, StructuredValue>, line: number, format: StructuredNode['format'] = 'json-ld'): StructuredNode {
  return {
    format,
    types: [{ written: type, schema: type }],
    id: null,
    reference: false,
    line,
    properties: Object.entries(properties).map(([name, value]) => ({ name: { written: name, schema: name }, values: [value] })),
  };
}

function extraction(items: StructuredNode[], problems: JsonLdProblem[] = []): StructuredExtraction {
  const formats = (['json-ld', 'microdata', 'rdfa'] as const).filter((format) => items.some((item) => item.format === format) || (format === 'json-ld' && problems.length > 0));
  return { present: true, formats, items, problems, byId: new Map() };
}

// The snapshot's `structured` field comes with the parse step's extraction.
const run = (structured?: StructuredExtraction) =>
  structuredDataValidCheck.run({ ...makeContext(), snapshot: { ...makeSnapshot(), ...(structured ? { structured } : {}) } as PageSnapshot });

/** The check over a page as the parse step reads it. */
const runHtml = (body: string, head = '') => {
  const html = `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
  return structuredDataValidCheck.run(makeContext({ snapshot: parsePage(PageText.of(html), 'https://example.com/shop/lamp') }));
};

describe('structured_data_valid on pages', () => {
  it('does not apply to a page with only Open Graph, or none', () => {
    expect(runHtml('<p>Hello</p>', '<meta property="og:title" content="Lamp">')).toEqual({ passed: null, reason: 'the page has no structured data' });
  });

  it('passes right items of all three formats', () => {
    const jsonLd = `<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Product", "name": "Lamp", "image": "/lamp.jpg",
 "offers": {"@type": "Offer", "price": "29.99", "priceCurrency": "EUR", "availability": "https://schema.org/InStock"}}
</script>`;
    const microdata = `<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Gig</span>
<time itemprop="startDate" datetime="2026-05-12T20:00">12 May</time></div>`;
    const rdfa = `<div vocab="https://schema.org/" typeof="Recipe"><span property="name">Soup</span>
<meta property="cookTime" content="PT30M"></div>`;
    expect(runHtml(microdata + rdfa, jsonLd)).toEqual({
      passed: true,
      value: { schema_org_version: '30.0', items: 3, formats: ['json-ld', 'microdata', 'rdfa'], errors: 0 },
      errors: null,
    });
  });

  it('fails each format with its findings located', () => {
    const jsonLd = `<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Product",
  "colour": "red",
  "offers": {"@type": "Offer", "availability": "in stock"}
}
</script>
<script type="application/ld+json">{"@type": "Event",</script>
<script type="application/ld+json">{"@context": "https://example.org/", "@type": "Widget"}</script>`;
    const microdata = `
<div itemscope itemtype="https://schema.org/Event">
  <time itemprop="startDate" datetime="12/05/2026">12 May</time>
  <div itemprop="offers" itemscope><span itemprop="colour">red</span></div>
</div>`;
    const rdfa = `
<div vocab="https://schema.org/" typeof="Recipie"><span property="cookTime">half an hour</span></div>
<div vocab="https://schema.org/" typeof="Recipe"><span property="cookTime">half an hour</span></div>`;
    const outcome = runHtml(microdata + rdfa, jsonLd);
    expect(outcome).toEqual({
      passed: false,
      value: { schema_org_version: '30.0', items: 4, formats: ['json-ld', 'microdata', 'rdfa'], errors: 8 },
      errors: {
        invalid_json: [{ line: 9, message: expect.any(String) }],
        wrong_context: [{ line: 10, context: 'https://example.org/' }],
        unknown_property: [
          { format: 'json-ld', type: 'Product', property: 'colour', line: 5 },
          { format: 'microdata', type: 'Demand Offer', property: 'offers.colour', line: 13 },
        ],
        invalid_value: [
          { format: 'json-ld', type: 'Offer', property: 'offers.availability', value: 'in stock', expected: 'a member of ItemAvailability', line: 6 },
          { format: 'microdata', type: 'Event', property: 'startDate', value: '12/05/2026', expected: 'Date or DateTime (ISO 8601)', line: 12 },
          { format: 'rdfa', type: 'Recipe', property: 'cookTime', value: 'half an hour', expected: 'Duration (ISO 8601)', line: 16 },
        ],
        unknown_type: [{ format: 'rdfa', type: 'Recipie', line: 15 }],
      },
    });
  });
});

describe('structured_data_valid', () => {
  it('does not apply to a page without structured data', () => {
    expect(run()).toEqual({ passed: null, reason: 'the page has no structured data' });
    expect(run({ present: false, formats: [], items: [], problems: [], byId: new Map() })).toEqual({ passed: null, reason: 'the page has no structured data' });
  });

  it('passes items that follow schema.org, with the release, item count and formats', () => {
    const items = [node('Product', { name: text('Lamp', 3) }, 2), node('BreadcrumbList', { name: text('Trail', 21) }, 20, 'microdata')];
    expect(run(extraction(items))).toEqual({
      passed: true,
      value: { schema_org_version: '30.0', items: 2, formats: ['json-ld', 'microdata'], errors: 0 },
      errors: null,
    });
  });

  it('fails with the findings by kind, their fields without the kind, at most 50 each, all of them counted', () => {
    const colours = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`colour${index}`, text('red', index + 3)]));
    const items = [
      node('Event', { ...colours, startDate: text('12/05/2026', 70) }, 2),
      node('Prodcut', {}, 80, 'rdfa'),
    ];
    const problems: JsonLdProblem[] = [
      { kind: 'invalid_json', line: 90, message: 'not a JSON-LD object' },
      { kind: 'wrong_context', line: 95, context: 'https://example.org/' },
      { kind: 'missing_type', line: 99 },
    ];
    const outcome = run(extraction(items, problems));
    expect(outcome).toMatchObject({ passed: false, value: { schema_org_version: '30.0', items: 2, formats: ['json-ld', 'rdfa'], errors: 65 } });
    const errors = (outcome as { errors: Record<string, unknown[]> }).errors;
    expect(Object.keys(errors)).toEqual(['invalid_json', 'wrong_context', 'missing_type', 'unknown_property', 'invalid_value', 'unknown_type']);
    expect(errors.invalid_json).toEqual([{ line: 90, message: 'not a JSON-LD object' }]);
    expect(errors.wrong_context).toEqual([{ line: 95, context: 'https://example.org/' }]);
    expect(errors.missing_type).toEqual([{ line: 99 }]);
    expect(errors.unknown_property).toHaveLength(50);
    expect(errors.unknown_property[0]).toEqual({ format: 'json-ld', type: 'Event', property: 'colour0', line: 3 });
    expect(errors.invalid_value).toEqual([
      { format: 'json-ld', type: 'Event', property: 'startDate', value: '12/05/2026', expected: 'Date or DateTime (ISO 8601)', line: 70 },
    ]);
    expect(errors.unknown_type).toEqual([{ format: 'rdfa', type: 'Prodcut', line: 80 }]);
  });

  it('labels every field of its value, kind of error and field of their items', () => {
    const labels = structuredDataValidCheck.labels ?? {};
    const keys = ['schema_org_version', 'items', 'formats', 'errors', 'invalid_json', 'wrong_context', 'missing_type', 'unknown_type', 'unknown_property', 'invalid_value',
      'message', 'context', 'format', 'type', 'property', 'value', 'expected'];
    expect(keys.filter((key) => labels[key] === undefined)).toEqual([]);
    expect(structuredDataValidCheck.catalogue).toEqual({ schema_org_version: '30.0' });
  });
});
