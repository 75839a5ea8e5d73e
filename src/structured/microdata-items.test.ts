import { describe, expect, it } from 'vitest';
import { PageText } from '../fetch/page-text.ts';
import { parsePage } from '../parse/parse-page.ts';
import type { StructuredExtraction, StructuredNode, StructuredValue } from './structured-types.ts';

const FINAL_URL = 'https://example.com/dir/page';
const extract = (html: string): StructuredExtraction => parsePage(PageText.of(html), FINAL_URL).structured;
const lineOf = (html: string, needle: string) => html.slice(0, html.indexOf(needle)).split('\n').length;
const values = (node: StructuredNode, name: string): StructuredValue[] =>
  node.properties.find((property) => property.name.written === name)?.values ?? [];
/** Each property as `name: value, value` (texts as they are, nodes as their types in brackets). */
const summary = (node: StructuredNode) =>
  node.properties.map(
    (property) =>
      `${property.name.written}: ${property.values.map((value) => (value.kind === 'text' ? value.text : value.kind === 'node' ? `[${value.node.types.map((type) => type.schema).join(' ')}]` : value.kind)).join(', ')}`,
  );
const item = (html: string, index = 0) => extract(html).items[index];
const scope = (type: string, inner: string, attributes = '') => `<div itemscope itemtype="https://schema.org/${type}"${attributes}>${inner}</div>`;

describe('microdata items', () => {
  it('makes an item of an itemscope with itemtype and no itemprop, on the line of its start tag', () => {
    const html = '<html><body>\n<div class="x"\n itemscope itemtype="https://schema.org/Product" itemid="urn:sku:1">\n<span itemprop="name">Lamp</span>\n</div></body></html>';
    const { present, formats, items, problems, byId } = extract(html);
    expect({ present, formats, problems, ids: byId.size }).toEqual({ present: true, formats: ['microdata'], problems: [], ids: 0 });
    expect(items).toEqual([
      {
        format: 'microdata',
        types: [{ written: 'https://schema.org/Product', schema: 'Product' }],
        id: 'urn:sku:1',
        reference: false,
        line: 2,
        properties: [{ name: { written: 'name', schema: 'name' }, values: [{ kind: 'text', text: 'Lamp', line: lineOf(html, '<span') }] }],
      },
    ]);
  });

  it('makes an itemscope with itemprop the value of the enclosing item, and one without itemprop an item of its own', () => {
    const html = scope(
      'Product',
      '<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="9.90"></div>' +
        scope('Review', '<span itemprop="author">A</span>') +
        '<span itemprop="name">Lamp</span>',
    );
    const items = extract(html).items;
    expect(items.map((node) => node.types[0].schema)).toEqual(['Product', 'Review']);
    expect(summary(items[0])).toEqual(['offers: [Offer]', 'name: Lamp']);
    expect(summary((values(items[0], 'offers')[0] as { node: StructuredNode }).node)).toEqual(['price: 9.90']);
    expect(summary(items[1])).toEqual(['author: A']);
  });

  it('makes an untyped node of an itemscope without itemtype that is a value, and nothing of one that is not', () => {
    const html = scope('Event', '<div itemprop="location" itemscope><span itemprop="name">Hall</span></div>') + '<div itemscope><span itemprop="name">x</span></div>';
    const { items } = extract(html);
    expect(items).toHaveLength(1);
    const location = (values(items[0], 'location')[0] as { node: StructuredNode }).node;
    expect(location).toMatchObject({ types: [], id: null, properties: [{ name: { schema: 'name' }, values: [{ text: 'Hall' }] }] });
    expect(extract('<div itemscope><span itemprop="name">x</span></div>')).toMatchObject({ present: false, items: [] });
  });

  it('follows itemref, before or after the item, in document order, to properties outside any item', () => {
    const html =
      '<p id="before"><span itemprop="name">Jane</span></p>' +
      scope('Person', '<span itemprop="jobTitle">Boss</span>', ' itemref="after before missing"') +
      '<div id="after"><b><i itemprop="email">j@example.com</i></b><span itemprop="worksFor" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme</span></span></div>';
    const [person] = extract(html).items;
    expect(summary(person)).toEqual(['name: Jane', 'jobTitle: Boss', 'email: j@example.com', 'worksFor: [Organization]']);
    // the Organization's own name stays its own
    expect(summary((values(person, 'worksFor')[0] as { node: StructuredNode }).node)).toEqual(['name: Acme']);
  });

  it('follows itemref to an itemscope element with itemprop, but not into an item below the referenced element', () => {
    const html =
      scope('Event', '', ' itemref="org nested"') +
      '<div id="org" itemprop="organizer" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Club</span></div>' +
      '<div id="nested" itemscope itemtype="https://schema.org/Place"><span itemprop="name">Hall</span></div>';
    const [event, place] = extract(html).items;
    expect(summary(event)).toEqual(['organizer: [Organization]']);
    expect(summary(place)).toEqual(['name: Hall']);
  });

  it('lists a property reached both inside the item and through itemref once', () => {
    const html = scope('Thing', '<div id="inner"><span itemprop="name">N</span></div>', ' itemref="inner inner"');
    expect(summary(item(html))).toEqual(['name: N']);
  });

  it('follows only the first element with an id, as getElementById does', () => {
    const html = scope('Thing', '', ' itemref="x"') + '<p id="x"><span itemprop="name">first</span></p><p id="x"><span itemprop="alternateName">second</span></p>';
    expect(summary(item(html))).toEqual(['name: first']);
  });

  it('drops values that would make an item contain itself through itemref', () => {
    const html =
      '<div itemscope itemtype="https://schema.org/Person" id="a" itemref="b"><span itemprop="name">A</span></div>' +
      '<div id="b"><div itemprop="knows" itemscope itemtype="https://schema.org/Person" itemref="c"><span itemprop="name">B</span></div></div>' +
      '<div id="c"><div itemprop="knows" itemscope itemtype="https://schema.org/Person" itemref="b"><span itemprop="name">C</span></div></div>';
    const [a] = extract(html).items;
    // walking the values never comes back to a node already on the way
    const walk = (node: StructuredNode, path: Set<StructuredNode>): number => {
      expect(path.has(node)).toBe(false);
      let count = 1;
      for (const property of node.properties) {
        for (const value of property.values) if (value.kind === 'node') count += walk(value.node, new Set([...path, node]));
      }
      return count;
    };
    expect(walk(a, new Set())).toBeGreaterThanOrEqual(3);
    expect(summary(a)).toEqual(['name: A', 'knows: [Person]']);
  });

  it('gives the value to each token of itemprop, and reads a full schema.org IRI as the bare name', () => {
    const html = scope('Product', '<span itemprop=" name  alternateName name ">Lamp</span><span itemprop="https://schema.org/sku http://schema.org/mpn">42</span>');
    const product = item(html);
    expect(product.properties.map((property) => [property.name.written, property.name.schema])).toEqual([
      ['name', 'name'],
      ['alternateName', 'alternateName'],
      ['https://schema.org/sku', 'sku'],
      ['http://schema.org/mpn', 'mpn'],
    ]);
    expect(summary(product)).toEqual(['name: Lamp', 'alternateName: Lamp', 'https://schema.org/sku: 42', 'http://schema.org/mpn: 42']);
    // one value object per property, so each has its own line to assign
    expect(values(product, 'name')[0]).not.toBe(values(product, 'alternateName')[0]);
  });

  it('takes each value from where the extraction rules say, in their order', () => {
    const html = scope(
      'Thing',
      [
        '<span itemprop="a" content="from content">text</span>',
        '<a itemprop="b" content="content first" href="/x">t</a>',
        '<img itemprop="img" src="i.png"><audio itemprop="audio" src="a.mp3"></audio><embed itemprop="embed" src="e.swf">',
        '<iframe itemprop="iframe" src="f.html"></iframe><video itemprop="video" src="v.mp4"><source itemprop="source" src="s.webm"><track itemprop="track" src="t.vtt"></video>',
        '<a itemprop="link" href="../up">text</a><map><area itemprop="area" href="#area"></map><link itemprop="linkTag" href="//cdn.example.org/x">',
        '<object itemprop="object" data="o.pdf"></object>',
        '<data itemprop="data" value="42">forty-two</data><meter itemprop="meter" value="0.5">half</meter>',
        '<time itemprop="time" datetime="2026-05-01">May 1</time><time itemprop="timeText">2026-06-01</time>',
        '<a itemprop="noHref">  plain\n  link </a><div itemprop="src" src="ignored.png">div text</div>',
        '<div itemprop="text">  Some <b>bold</b>\n\t text<span hidden> hidden</span>&amp; more <script>code()</script> </div>',
      ].join('\n'),
    );
    expect(summary(item(html))).toEqual([
      'a: from content',
      'b: content first',
      'img: https://example.com/dir/i.png',
      'audio: https://example.com/dir/a.mp3',
      'embed: https://example.com/dir/e.swf',
      'iframe: https://example.com/dir/f.html',
      'video: https://example.com/dir/v.mp4',
      'source: https://example.com/dir/s.webm',
      'track: https://example.com/dir/t.vtt',
      'link: https://example.com/up',
      'area: https://example.com/dir/page#area',
      'linkTag: https://cdn.example.org/x',
      'object: https://example.com/dir/o.pdf',
      'data: 42',
      'meter: 0.5',
      'time: 2026-05-01',
      'timeText: 2026-06-01',
      'noHref: plain link',
      'src: div text',
      'text: Some bold text hidden& more code()',
    ]);
  });

  it('gives nested text-content values each their own text, the outer one all of it', () => {
    const html = scope('Article', '<div itemprop="articleBody">Intro <span itemprop="headline">Title</span> end</div>');
    expect(summary(item(html))).toEqual(['articleBody: Intro Title end', 'headline: Title']);
  });

  it("resolves URL values against the page's final URL, not a <base>", () => {
    const html = `<html><head><base href="https://cdn.example.net/assets/"></head><body>${scope('Thing', '<a itemprop="url" href="page2">x</a><a itemprop="sameAs" href="http://[bad">y</a>')}</body></html>`;
    const snapshot = parsePage(PageText.of(html), FINAL_URL);
    expect(snapshot.baseUrl).toBe('https://cdn.example.net/assets/');
    expect(summary(snapshot.structured.items[0])).toEqual(['url: https://example.com/dir/page2', 'sameAs: http://[bad']);
  });

  it('puts each value on the line of its itemprop element and each nested node on the line of its itemscope', () => {
    const html = '<div itemscope itemtype="https://schema.org/Recipe">\n<h1 itemprop="name">\nSoup</h1>\n\n<div\nitemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">C</span></div></div>';
    const recipe = item(html);
    expect(values(recipe, 'name')[0].line).toBe(2);
    const author = values(recipe, 'author')[0];
    expect(author.line).toBe(5);
    expect((author as { node: StructuredNode }).node.line).toBe(5);
  });

  it('reads schema.org types under http or https, with or without a trailing slash, and no other vocabulary', () => {
    const typesOf = (itemtype: string) => item(`<div itemscope itemtype="${itemtype}"><span itemprop="name">n</span></div>`).types;
    expect(typesOf('http://schema.org/Product https://schema.org/Car/')).toEqual([
      { written: 'http://schema.org/Product', schema: 'Product' },
      { written: 'https://schema.org/Car/', schema: 'Car' },
    ]);
    const other = item('<div itemscope itemtype="http://data-vocabulary.org/Breadcrumb"><span itemprop="title">t</span></div>');
    expect(other.types).toEqual([{ written: 'http://data-vocabulary.org/Breadcrumb', schema: null }]);
    // a bare property of another vocabulary's item is that vocabulary's
    expect(other.properties[0].name).toEqual({ written: 'title', schema: null });
    expect(typesOf('Product')).toEqual([{ written: 'Product', schema: null }]);
  });

  it('ignores items in noscript and template, and counts an itemscope with an empty itemtype as present but no item', () => {
    expect(extract(`<noscript>${scope('A', '')}</noscript><template>${scope('B', '')}</template>`)).toMatchObject({ present: false, items: [] });
    expect(extract('<div itemscope itemtype=""><span itemprop="name">n</span></div>')).toMatchObject({ present: true, formats: ['microdata'], items: [] });
    // a property inside noscript is not the item's either
    expect(summary(item(scope('Thing', '<noscript><span itemprop="name">n</span></noscript><span itemprop="alternateName">a</span>')))).toEqual(['alternateName: a']);
  });
});
