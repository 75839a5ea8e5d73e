import { describe, expect, it } from 'vitest';
import { PageText } from '../fetch/page-text.ts';
import { parsePage } from '../parse/parse-page.ts';
import { MAX_ITEMS, MAX_JSON_DEPTH, type StructuredExtraction, type StructuredNode, type StructuredValue } from './structured-types.ts';

const extract = (html: string): StructuredExtraction => parsePage(PageText.of(html), 'https://example.com/dir/page').structured;
/** A page whose head holds these JSON-LD blocks, each on lines of its own. */
const page = (...blocks: string[]) =>
  `<!DOCTYPE html>\n<html><head>\n${blocks.map((block) => `<script type="application/ld+json">\n${block}\n</script>\n`).join('')}</head><body><p>text</p></body></html>`;
/** The 1-based line of the first `needle` in `html` (at or after `from`). */
const lineOf = (html: string, needle: string, from = 0) => html.slice(0, html.indexOf(needle, from)).split('\n').length;
const types = (node: StructuredNode) => node.types.map((type) => type.schema ?? `(${type.written})`).join(' ');
const property = (node: StructuredNode, name: string) => node.properties.find((candidate) => candidate.name.written === name);
const values = (node: StructuredNode, name: string): StructuredValue[] => property(node, name)?.values ?? [];
const SCHEMA = '"@context": "https://schema.org"';

describe('JSON-LD items', () => {
  it('makes an item of a typed top-level object, with its line and the lines of its keys', () => {
    const html = page(`  {${SCHEMA},\n   "@type": "Product",\n   "name": "Lamp",\n   "offers": {\n     "@type": "Offer",\n     "price": 9.90\n   }\n  }`);
    const { present, formats, items, problems } = extract(html);
    expect({ present, formats, problems }).toEqual({ present: true, formats: ['json-ld'], problems: [] });
    expect(items).toHaveLength(1);
    const [product] = items;
    // the `{` is two lines below the <script> tag
    expect(lineOf(html, '<script')).toBe(lineOf(html, '{') - 1);
    expect(product).toMatchObject({ format: 'json-ld', types: [{ written: 'Product', schema: 'Product' }], id: null, reference: false, line: lineOf(html, '{') });
    expect(values(product, 'name')).toEqual([{ kind: 'text', text: 'Lamp', line: lineOf(html, '"name"') }]);
    const [offer] = values(product, 'offers');
    expect(offer).toMatchObject({ kind: 'node', line: lineOf(html, '"offers"') });
    const offerNode = (offer as { node: StructuredNode }).node;
    expect(offerNode).toMatchObject({ types: [{ written: 'Offer', schema: 'Offer' }], line: lineOf(html, '{', html.indexOf('"offers"')) });
    expect(values(offerNode, 'price')).toEqual([{ kind: 'number', number: 9.9, written: '9.90', line: lineOf(html, '"price"') }]);
  });

  it('makes an item of each typed object of @graph, and of the container only when it is typed', () => {
    const untypedContainer = page(`{${SCHEMA}, "@graph": [{"@type": "WebSite", "name": "S"}, {"@type": "Organization"}, {"name": "no type"}, "text"]}`);
    expect(extract(untypedContainer).items.map(types)).toEqual(['WebSite', 'Organization']);
    expect(extract(untypedContainer).problems).toEqual([]);
    const typedContainer = page(`{${SCHEMA}, "@type": "WebPage", "name": "P",\n"@graph": {"@type": "Person"}}`);
    const items = extract(typedContainer).items;
    expect(items.map(types)).toEqual(['WebPage', 'Person']);
    // the container's properties are its own keys, @graph not among them
    expect(items[0].properties.map((candidate) => candidate.name.written)).toEqual(['name']);
    expect(items[1].line).toBe(lineOf(typedContainer, '{"@type": "Person"}'));
  });

  it('reads each element of a top-level array by the same rules, and reports an element that is no object', () => {
    const html = page(`[\n{${SCHEMA}, "@type": "Article"},\n"just text",\n{"@type": "Event"},\n{${SCHEMA}, "name": "untyped"}\n]`);
    const { items, problems } = extract(html);
    expect(items.map(types)).toEqual(['Article']);
    expect(problems).toEqual([
      { kind: 'invalid_json', line: lineOf(html, '<script'), message: 'not a JSON-LD object' },
      { kind: 'wrong_context', line: lineOf(html, '{"@type": "Event"}'), context: null },
      { kind: 'missing_type', line: lineOf(html, '{"@context": "https://schema.org", "name"') },
    ]);
    expect(extract(page('"text"')).problems).toMatchObject([{ kind: 'invalid_json', message: 'not a JSON-LD object' }]);
    expect(extract(page('[]'))).toMatchObject({ present: true, items: [], problems: [] });
  });

  it('reports the @context of a top-level node that is not schema.org, as plain JSON', () => {
    const html = page('{"@context": {"@vocab": "https://example.org/"}, "@type": "Thing"}', '{"@context": "https://schema.org", "@type": "Thing"}');
    const { items, problems } = extract(html);
    expect(items.map(types)).toEqual(['Thing']);
    expect(problems).toEqual([{ kind: 'wrong_context', line: lineOf(html, '{"@context": {'), context: { '@vocab': 'https://example.org/' } }]);
  });

  it('takes schema.org in every form of @context structured_data accepts', () => {
    const accepted = [
      '"https://schema.org"',
      '"http://schema.org/"',
      '"https://schema.org/docs/jsonldcontext.json"',
      '"http://schema.org/docs/jsonldcontext.jsonld"',
      '" HTTPS://SCHEMA.ORG/ "',
      '["https://schema.org", {"ex": "https://example.org/"}]',
      '{"@vocab": "http://schema.org/"}',
    ];
    for (const context of accepted) expect(extract(page(`{"@context": ${context}, "@type": "Thing"}`)).items, context).toHaveLength(1);
    const refused = ['"https://example.org"', '"https://schema.org/Thing"', '"https://www.schema.org"', '{"name": "https://schema.org"}', '42', '[]'];
    for (const context of refused) expect(extract(page(`{"@context": ${context}, "@type": "Thing"}`)).problems, context).toMatchObject([{ kind: 'wrong_context' }]);
  });

  it('reads a type or property written bare, with schema: or as a full schema.org IRI as the same term', () => {
    const html = page(
      `{${SCHEMA}, "@type": ["Product", "schema:Car", "https://schema.org/Vehicle", "http://schema.org/Thing"],` +
        ' "name": "a", "schema:color": "red", "https://schema.org/sku": "1", "http://schema.org/mpn": "2"}',
    );
    const [item] = extract(html).items;
    expect(item.types).toEqual([
      { written: 'Product', schema: 'Product' },
      { written: 'schema:Car', schema: 'Car' },
      { written: 'https://schema.org/Vehicle', schema: 'Vehicle' },
      { written: 'http://schema.org/Thing', schema: 'Thing' },
    ]);
    expect(item.properties.map((candidate) => candidate.name)).toEqual([
      { written: 'name', schema: 'name' },
      { written: 'schema:color', schema: 'color' },
      { written: 'https://schema.org/sku', schema: 'sku' },
      { written: 'http://schema.org/mpn', schema: 'mpn' },
    ]);
  });

  it('keeps terms of other vocabularies as written, with no schema.org name', () => {
    const html = page(`{${SCHEMA}, "@type": ["ex:Widget", "https://example.org/ns#Widget"], "ex:size": 3, "https://example.org/ns#weight": 4}`);
    const [item] = extract(html).items;
    expect(item.types).toEqual([
      { written: 'ex:Widget', schema: null },
      { written: 'https://example.org/ns#Widget', schema: null },
    ]);
    expect(item.properties.map((candidate) => candidate.name.schema)).toEqual([null, null]);
  });

  it('resolves a nested node against the nearest @context', () => {
    const html = page(`{${SCHEMA}, "@type": "Event", "organizer": {"@context": "https://example.org/", "@type": "Club", "motto": "m"}}`);
    const organizer = (values(extract(html).items[0], 'organizer')[0] as { node: StructuredNode }).node;
    expect(organizer.types).toEqual([{ written: 'Club', schema: null }]);
    expect(organizer.properties[0].name).toEqual({ written: 'motto', schema: null });
  });

  it('keeps keywords out of the properties', () => {
    const [item] = extract(page(`{${SCHEMA}, "@type": "Thing", "@id": "#t", "@language": "en", "@reverse": {}, "name": "n"}`)).items;
    expect(item.properties.map((candidate) => candidate.name.written)).toEqual(['name']);
    expect(item.id).toBe('#t');
  });

  it('reads value objects as plain values, and flattens arrays, @list and @set', () => {
    const html = page(
      `{${SCHEMA}, "@type": "Event",\n "startDate": {"@value": "2026-05-01", "@type": "Date"},\n "maximumAttendeeCapacity": {"@value": 30},\n` +
        ` "isAccessibleForFree": {"@value": true},\n "keywords": ["a", ["b", {"@list": ["c", {"@set": ["d"]}]}]],\n "about": [null, {}]}`,
    );
    const [item] = extract(html).items;
    const line = (key: string) => lineOf(html, `"${key}"`);
    expect(values(item, 'startDate')).toEqual([{ kind: 'text', text: '2026-05-01', line: line('startDate'), valueObject: true }]);
    expect(values(item, 'maximumAttendeeCapacity')).toEqual([{ kind: 'number', number: 30, written: '30', line: line('maximumAttendeeCapacity'), valueObject: true }]);
    expect(values(item, 'isAccessibleForFree')).toEqual([{ kind: 'boolean', boolean: true, line: line('isAccessibleForFree'), valueObject: true }]);
    expect(values(item, 'keywords').map((value) => (value as { text: string }).text)).toEqual(['a', 'b', 'c', 'd']);
    expect(values(item, 'keywords').every((value) => value.line === line('keywords'))).toBe(true);
    const about = values(item, 'about');
    expect(about[0]).toEqual({ kind: 'null', line: line('about') });
    expect(about[1]).toMatchObject({ kind: 'node', node: { types: [], properties: [], reference: false } });
  });

  it('keeps a property written with no value', () => {
    const [item] = extract(page(`{${SCHEMA}, "@type": "Product", "image": []}`)).items;
    expect(item.properties).toEqual([{ name: { written: 'image', schema: 'image' }, values: [] }]);
  });

  it('marks an object holding only @id as a reference, and lists every other node with an @id, first one first', () => {
    const html = page(
      `{${SCHEMA}, "@graph": [\n{"@type": "WebPage", "@id": "#page", "publisher": {"@id": "#org", "@context": "https://schema.org"}},\n` +
        `{"@type": "Organization", "@id": "#org", "logo": {"@type": "ImageObject", "@id": "#logo"}},\n{"@id": "#untyped", "name": "u"}]}`,
      `{${SCHEMA}, "@type": "Organization", "@id": "#org", "name": "second"}`,
    );
    const { items, byId } = extract(html);
    expect(items.map(types)).toEqual(['WebPage', 'Organization', 'Organization']);
    const publisher = (values(items[0], 'publisher')[0] as { node: StructuredNode }).node;
    expect(publisher).toMatchObject({ id: '#org', reference: true, types: [], properties: [] });
    expect([...byId.keys()]).toEqual(['#page', '#org', '#logo', '#untyped']);
    expect(byId.get('#org')).toBe(items[1]);
    expect(byId.get('#logo')?.types[0].schema).toBe('ImageObject');
    expect(byId.get('#untyped')?.line).toBe(lineOf(html, '{"@id": "#untyped"'));
  });

  it('reports a block that is not JSON on the line of its <script> tag, saying where it breaks', () => {
    const html = page(`{${SCHEMA},\n "@type": "Thing",\n "name": "x",\n}`);
    const { items, problems } = extract(html);
    expect(items).toEqual([]);
    expect(problems).toEqual([
      { kind: 'invalid_json', line: lineOf(html, '<script'), message: `trailing comma before '}' (line ${lineOf(html, '}')}, column 1)` },
    ]);
  });

  it('gives the CDATA hint for a block wrapped in CDATA', () => {
    for (const wrapped of ['<![CDATA[{"@type": "Thing"}]]>', '//<![CDATA[\n{"@type": "Thing"}\n//]]>', '/* <![CDATA[ */ {} /* ]]> */']) {
      const [problem] = extract(page(wrapped)).problems;
      expect(problem).toMatchObject({ kind: 'invalid_json', message: expect.stringMatching(/^wrapped in <!\[CDATA\[ \]\]>, which is not JSON: /) });
    }
  });

  it(`reports JSON nested deeper than ${MAX_JSON_DEPTH} levels as invalid_json, nested too deep`, () => {
    const nested = (levels: number) => `{${SCHEMA}, "@type": "Thing", "a": ${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}}`;
    expect(extract(page(nested(MAX_JSON_DEPTH)))).toMatchObject({ items: [{ types: [{ schema: 'Thing' }] }], problems: [] });
    const html = page(nested(MAX_JSON_DEPTH + 1));
    expect(extract(html)).toMatchObject({ items: [], problems: [{ kind: 'invalid_json', line: lineOf(html, '<script'), message: expect.stringMatching(/^nested too deep/) }] });
  });

  it('reads the blocks of the body too, but none in noscript or template', () => {
    const html = `<body><script type="application/ld+json">{${SCHEMA}, "@type": "A"}</script><noscript><script type="application/ld+json">{${SCHEMA}, "@type": "B"}</script></noscript><template><script type="application/ld+json">{${SCHEMA}, "@type": "C"}</script></template></body>`;
    expect(extract(html).items.map(types)).toEqual(['A']);
  });

  it('reads a block whose text is split across the pieces of a long page', () => {
    const filler = `<p>${'x'.repeat(70_000)}</p>\n`;
    const html = `<html><body>${filler}<script type="application/ld+json">\n{${SCHEMA},\n"@type": "Thing", "name": "late"}</script>${filler}</body></html>`;
    const cut = html.indexOf('"@type"');
    const snapshot = parsePage(new PageText([html.slice(0, cut), html.slice(cut)]), 'https://example.com/');
    expect(snapshot.structured.items).toMatchObject([{ line: lineOf(html, '{"@context"'), properties: [{ values: [{ text: 'late', line: lineOf(html, '"name"') }] }] }]);
  });
});

describe('the extraction of a page', () => {
  it('is empty for a page without structured data', () => {
    const structured = extract('<html><head><meta property="og:title" content="t"></head><body><p id="a">x</p></body></html>');
    expect(structured).toEqual({ present: false, formats: [], items: [], problems: [], byId: new Map() });
  });

  it(`lists at most ${MAX_ITEMS} items, the first in document order`, () => {
    const many = Array.from({ length: MAX_ITEMS + 5 }, (_, index) => `{${SCHEMA}, "@type": "Thing", "name": "${index}"}`).join(',\n');
    const { items } = extract(page(`[${many}]`));
    expect(items).toHaveLength(MAX_ITEMS);
    expect((values(items[MAX_ITEMS - 1], 'name')[0] as { text: string }).text).toBe(String(MAX_ITEMS - 1));
  });

  it('lists the items of every format in document order, with the formats in their fixed order', () => {
    const html =
      '<html><body>\n<div vocab="https://schema.org/" typeof="Person"><span property="name">R</span></div>\n' +
      '<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">M</span></div>\n' +
      `<script type="application/ld+json">{${SCHEMA}, "@type": "Article"}</script>\n` +
      '<div typeof="schema:Place"></div>\n</body></html>';
    const { formats, items } = extract(html);
    expect(formats).toEqual(['json-ld', 'microdata', 'rdfa']);
    expect(items.map((item) => [item.format, types(item), item.line])).toEqual([
      ['rdfa', 'Person', 2],
      ['microdata', 'Event', 3],
      ['json-ld', 'Article', 4],
      ['rdfa', 'Place', 5],
    ]);
  });
});
