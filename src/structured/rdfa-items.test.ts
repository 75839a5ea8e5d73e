import { describe, expect, it } from 'vitest';
import { PageText } from '../fetch/page-text.ts';
import { parsePage } from '../parse/parse-page.ts';
import type { StructuredExtraction, StructuredNode, StructuredValue } from './structured-types.ts';

const extract = (html: string): StructuredExtraction => parsePage(PageText.of(html), 'https://example.com/dir/page').structured;
const values = (node: StructuredNode, name: string): StructuredValue[] =>
  node.properties.find((property) => property.name.written === name)?.values ?? [];
const summary = (node: StructuredNode) =>
  node.properties.map(
    (property) =>
      `${property.name.written}=${property.name.schema}: ${property.values.map((value) => (value.kind === 'text' ? value.text : value.kind === 'node' ? `[${value.node.types.map((type) => type.schema).join(' ')}]` : value.kind)).join(', ')}`,
  );
const VOCAB = 'vocab="https://schema.org/"';

describe('RDFa Lite items', () => {
  it('makes an item of a typeof element without property, terms resolved against the vocab', () => {
    const html = `<html><body ${VOCAB}>\n<div typeof="Person" resource="#jane">\n<span property="name">Jane</span></div></body></html>`;
    const { present, formats, items } = extract(html);
    expect({ present, formats }).toEqual({ present: true, formats: ['rdfa'] });
    expect(items).toEqual([
      {
        format: 'rdfa',
        types: [{ written: 'Person', schema: 'Person' }],
        id: '#jane',
        reference: false,
        line: 2,
        properties: [{ name: { written: 'name', schema: 'name' }, values: [{ kind: 'text', text: 'Jane', line: 3 }] }],
      },
    ]);
  });

  it('makes a typeof element with property the value of the nearest enclosing typeof element', () => {
    const html =
      `<div ${VOCAB} typeof="Event"><span property="name">Gig</span>` +
      '<div property="location" typeof="Place"><span property="name">Hall</span></div>' +
      '<div typeof="Review"><span property="reviewBody">ok</span></div></div>';
    const [event, review] = extract(html).items;
    expect(summary(event)).toEqual(['name=name: Gig', 'location=location: [Place]']);
    expect(summary((values(event, 'location')[0] as { node: StructuredNode }).node)).toEqual(['name=name: Hall']);
    expect(summary(review)).toEqual(['reviewBody=reviewBody: ok']);
  });

  it('uses the nearest vocab; an empty vocab removes it, and a vocab of another vocabulary gives no schema.org terms', () => {
    const html =
      `<div ${VOCAB}><div typeof="Thing"><span property="name">a</span>` +
      '<span vocab="https://example.org/ns#" property="size">3</span><span vocab="" property="color">red</span></div>' +
      '<div vocab="http://schema.org" typeof="Thing"></div><div vocab="https://example.org/" typeof="Widget"></div></div>';
    const [thing, plain, widget] = extract(html).items;
    expect(summary(thing)).toEqual(['name=name: a', 'size=null: 3', 'color=null: red']);
    expect(plain.types).toEqual([{ written: 'Thing', schema: 'Thing' }]);
    expect(widget.types).toEqual([{ written: 'Widget', schema: null }]);
  });

  it('resolves schema: without any prefix attribute, other prefixes through prefix, and full IRIs as they are', () => {
    const html =
      '<div typeof="schema:Product https://schema.org/Car http://example.org/Widget" prefix="ex: https://example.org/ns# s: http://schema.org/">' +
      '<span property="schema:name">n</span><span property="ex:size">3</span><span property="s:color">red</span>' +
      '<span property="og:title">t</span><span property="http://schema.org/sku">1</span><span property="name">bare</span></div>';
    const [product] = extract(html).items;
    expect(product.types).toEqual([
      { written: 'schema:Product', schema: 'Product' },
      { written: 'https://schema.org/Car', schema: 'Car' },
      { written: 'http://example.org/Widget', schema: null },
    ]);
    // without a vocab a bare term names nothing of schema.org's
    expect(summary(product)).toEqual(['schema:name=name: n', 'ex:size=null: 3', 's:color=color: red', 'og:title=null: t', 'http://schema.org/sku=sku: 1', 'name=null: bare']);
  });

  it('takes each value from content, then resource, href or src, then datetime, then the text content', () => {
    const html =
      `<div ${VOCAB} typeof="Thing">` +
      '<span property="a" content="from content" resource="r">text</span>' +
      '<a property="b" resource="schema:InStock" href="/ignored">t</a>' +
      '<a property="c" href="../up">text</a>' +
      '<img property="d" src="i.png">' +
      '<time property="e" datetime="2026-05-01">May</time><span property="f" datetime="2026">not a time element</span>' +
      '<p property="g">  some <b>bold</b>\n text &amp; more </p></div>';
    expect(summary(extract(html).items[0])).toEqual([
      'a=a: from content',
      'b=b: schema:InStock',
      'c=c: https://example.com/up',
      'd=d: https://example.com/dir/i.png',
      'e=e: 2026-05-01',
      'f=f: not a time element',
      'g=g: some bold text & more',
    ]);
  });

  it('gives the value to each property token, on the line of the property element', () => {
    const html = `<div ${VOCAB} typeof="Product">\n\n<span property="name alternateName">Lamp</span></div>`;
    const [product] = extract(html).items;
    expect(summary(product)).toEqual(['name=name: Lamp', 'alternateName=alternateName: Lamp']);
    expect(product.properties.map((property) => property.values[0].line)).toEqual([3, 3]);
  });

  it('ignores properties outside any typeof element and typeof elements in noscript or template', () => {
    const html = `<div ${VOCAB}><span property="name">orphan</span><div property="author" typeof="Person"></div></div>`;
    expect(extract(html)).toMatchObject({ present: true, items: [] });
    expect(extract(`<noscript><div typeof="schema:A"></div></noscript><template><div typeof="schema:B"></div></template>`)).toMatchObject({ present: false, items: [] });
  });

  it('drops the properties of a typeof element that is no item and no value, rather than giving them to an outer item', () => {
    const html = `<div ${VOCAB} typeof="Thing"><span property="name">outer</span><div typeof=""><span property="alternateName">inner</span></div></div>`;
    expect(extract(html).items.map(summary)).toEqual([['name=name: outer']]);
  });
});
