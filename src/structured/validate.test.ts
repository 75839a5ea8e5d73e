import { describe, expect, it } from 'vitest';
import type { StructuredExtraction, StructuredFormat, StructuredNode, StructuredValue, Term, ValidationFinding, Vocabulary } from './structured-types.ts';
import { validateStructuredData } from './validate.ts';
import { schemaOrg } from './vocabulary.ts';

// A small vocabulary with schema.org's own shapes (its subClassOf, domains and ranges for these terms).
const PARENTS: Record<string, string[]> = {
  Thing: [], CreativeWork: ['Thing'], Article: ['CreativeWork'], MediaObject: ['CreativeWork'], ImageObject: ['MediaObject'],
  TextObject: ['MediaObject'], Recipe: ['CreativeWork'], Product: ['Thing'], Vehicle: ['Product'], Car: ['Vehicle'], Event: ['Thing'],
  Intangible: ['Thing'], Offer: ['Intangible'], AggregateOffer: ['Offer'], Demand: ['Intangible'], ItemList: ['Intangible'],
  Service: ['Intangible'], Person: ['Thing'], Organization: ['Thing'], Enumeration: ['Intangible'], ItemAvailability: ['Enumeration'],
  DataType: [], Text: ['DataType'], URL: ['Text'], Number: ['DataType'], Integer: ['Number'], Float: ['Number'], Boolean: ['DataType'],
  Date: ['DataType'], DateTime: ['DataType'], Time: ['DataType'], Quantity: ['DataType'], Duration: ['Quantity'],
};
const MEMBERS: Record<string, string> = { InStock: 'ItemAvailability', OutOfStock: 'ItemAvailability', True: 'Boolean', False: 'Boolean' };
const PROPERTIES: Record<string, [domains: string[], ranges: string[]]> = {
  name: [['Thing'], ['Text']],
  description: [['Thing'], ['TextObject', 'Text']],
  url: [['Thing'], ['URL']],
  image: [['Thing'], ['URL', 'ImageObject']],
  startDate: [['Event'], ['Date', 'DateTime']],
  doorTime: [['Event'], ['DateTime', 'Time']],
  foundingDate: [['Organization'], ['Date']],
  cookTime: [['Recipe'], ['Duration']],
  copyrightYear: [['CreativeWork'], ['Number']],
  wordCount: [['CreativeWork', 'Article'], ['Integer']],
  isFamilyFriendly: [['Offer', 'CreativeWork', 'Product'], ['Boolean']],
  availability: [['Demand', 'Offer'], ['ItemAvailability']],
  offers: [['CreativeWork', 'Product', 'Event'], ['Offer', 'Demand']],
  price: [['Offer'], ['Text', 'Number']],
  author: [['CreativeWork'], ['Organization', 'Person']],
  itemOffered: [['Offer', 'Demand'], ['Product', 'Service']],
};

function ancestors(name: string): Set<string> {
  const parents = PARENTS[name];
  if (parents === undefined) return new Set();
  return new Set([name, ...parents.flatMap((parent) => [...ancestors(parent)])]);
}

const stub: Vocabulary = {
  version: 'stub',
  isClass: (name) => name in PARENTS,
  isProperty: (name) => name in PROPERTIES,
  ancestors,
  isSubclassOf: (name, of) => ancestors(name).has(of),
  domains: (property) => PROPERTIES[property]?.[0] ?? [],
  ranges: (property) => PROPERTIES[property]?.[1] ?? [],
  isDataType: (name) => ancestors(name).has('DataType'),
  isEnumeration: (name) => ancestors(name).has('Enumeration'),
  isMemberOf: (member, enumeration) => MEMBERS[member] !== undefined && ancestors(MEMBERS[member]).has(enumeration),
};

const PAGE = 'https://example.com/shop/page';

/** A term as JSON-LD with a schema.org context reads it: bare, `schema:` or a schema.org IRI; `ex:` is another vocabulary. */
function term(written: string): Term {
  if (written.startsWith('ex:') || written.startsWith('https://example.org/')) return { written, schema: null };
  return { written, schema: written.replace(/^(?:https?:\/\/schema\.org\/|schema:)/, '') };
}

const text = (value: string, line = 1, valueObject?: true): StructuredValue => ({ kind: 'text', text: value, line, ...(valueObject ? { valueObject } : {}) });
const num = (value: number, line = 1): StructuredValue => ({ kind: 'number', number: value, written: String(value), line });
const bool = (value: boolean, line = 1): StructuredValue => ({ kind: 'boolean', boolean: value, line });
const nested = (value: StructuredNode, line = value.line): StructuredValue => ({ kind: 'node', node: value, line });
const ref = (id: string, line = 1): StructuredValue => nested({ format: 'json-ld', types: [], id, reference: true, line, properties: [] });

type Properties = Record<string, StructuredValue | StructuredValue[]>;
interface NodeOptions {
  line?: number;
  id?: string;
  format?: StructuredFormat;
}

function node(types: string | string[], properties: Properties = {}, { line = 1, id, format = 'json-ld' }: NodeOptions = {}): StructuredNode {
  return {
    format,
    types: (Array.isArray(types) ? types : [types]).filter((type) => type !== '').map(term),
    id: id ?? null,
    reference: false,
    line,
    properties: Object.entries(properties).map(([name, values]) => ({ name: term(name), values: Array.isArray(values) ? values : [values] })),
  };
}

function extraction(items: StructuredNode[], extra: Partial<StructuredExtraction> = {}): StructuredExtraction {
  const byId = new Map<string, StructuredNode>();
  for (const item of items) if (item.id !== null) byId.set(item.id, item);
  return { present: true, formats: ['json-ld'], items, problems: [], byId, ...extra };
}

const validate = (items: StructuredNode[], vocabulary: Vocabulary = stub) => validateStructuredData(extraction(items), vocabulary, PAGE);
/** The `expected` of each invalid_value, or 'ok' when the one property's value is right. */
const judged = (types: string, property: string, value: StructuredValue) => {
  const findings = validate([node(types, { [property]: value })]);
  expect(findings.every((finding) => finding.kind === 'invalid_value'), JSON.stringify(findings)).toBe(true);
  return findings.length === 0 ? 'ok' : findings.map((finding) => (finding as { expected: string }).expected).join('; ');
};

describe('validateStructuredData: types and properties', () => {
  it('lists the JSON-LD problems first, then the items in document order', () => {
    const problems: ValidationFinding[] = [
      { kind: 'invalid_json', line: 3, message: 'not a JSON-LD object' },
      { kind: 'wrong_context', line: 9, context: 'https://example.org' },
      { kind: 'missing_type', line: 12 },
    ];
    const items = [node('Prodcut', {}, { line: 20 }), node('Event', { colour: text('red', 31) }, { line: 30 })];
    expect(validateStructuredData(extraction(items, { problems: problems as StructuredExtraction['problems'] }), stub, PAGE)).toEqual([
      ...problems,
      { kind: 'unknown_type', format: 'json-ld', type: 'Prodcut', line: 20 },
      { kind: 'unknown_property', format: 'json-ld', type: 'Event', property: 'colour', line: 31 },
    ]);
  });

  it('knows types case-sensitively, in every written form, and leaves the properties of an unknown type unchecked', () => {
    expect(validate([node('Product'), node('schema:Product'), node('https://schema.org/Product'), node('http://schema.org/Car')])).toEqual([]);
    expect(validate([node('product', { colour: text('red') }, { line: 4 }), node(['Product', 'Prodcut'], { colour: text('red') }, { line: 7, format: 'microdata' })])).toEqual([
      { kind: 'unknown_type', format: 'json-ld', type: 'product', line: 4 },
      { kind: 'unknown_type', format: 'microdata', type: 'Prodcut', line: 7 },
    ]);
  });

  it('finds a property schema.org does not have, or does not give the type or its ancestors', () => {
    expect(validate([node('Car', { name: text('Roadster'), offers: nested(node('Offer')), isFamilyFriendly: bool(true) })])).toEqual([]);
    expect(validate([node(['Product', 'ex:Gadget'], { colour: text('red', 2), startDate: text('2026-05-12', 3) })])).toEqual([
      { kind: 'unknown_property', format: 'json-ld', type: 'Product ex:Gadget', property: 'colour', line: 2 },
      { kind: 'unknown_property', format: 'json-ld', type: 'Product ex:Gadget', property: 'startDate', line: 3 },
    ]);
  });

  it('accepts the terms of other vocabularies without judging them', () => {
    expect(validate([node('Product', { 'ex:widget': nested(node('ex:Widget', { 'ex:size': text('XL'), colour: text('red') })), 'https://example.org/ns#colour': text('red') })])).toEqual([]);
    // A node of another vocabulary's type alone: its schema.org-looking properties are its own.
    expect(validate([node('https://example.org/Widget', { colour: text('red'), startDate: text('soon') })])).toEqual([]);
  });

  it('judges an untyped nested node as the class ranges of the property that holds it', () => {
    const offer = node([], { price: text('12'), colour: text('red', 5), availability: text('in stock', 6) }, { line: 4 });
    expect(validate([node('Product', { offers: nested(offer, 3) })])).toEqual([
      { kind: 'unknown_property', format: 'json-ld', type: 'Offer Demand', property: 'offers.colour', line: 5 },
      { kind: 'invalid_value', format: 'json-ld', type: 'Offer Demand', property: 'offers.availability', value: 'in stock', expected: 'a member of ItemAvailability', line: 6 },
    ]);
    // Under a data-only range (name) the object is wrong, and has no type to judge its properties by.
    expect(validate([node('Product', { name: nested(node([], { colour: text('red') }), 2) })])).toEqual([
      { kind: 'invalid_value', format: 'json-ld', type: 'Product', property: 'name', value: '{…}', expected: 'a data value, not an object', line: 2 },
    ]);
  });

  it('names a nested node by its own type and the path from the item, one line per value', () => {
    const offers = [node('Offer', { availability: text('soon', 4) }, { line: 3 }), node('Offer', { availability: text('later', 7) }, { line: 6 })];
    expect(validate([node('Product', { offers: offers.map((offer) => nested(offer, 2)), author: text('Ann', 9) })])).toEqual([
      { kind: 'invalid_value', format: 'json-ld', type: 'Offer', property: 'offers.availability', value: 'soon', expected: 'a member of ItemAvailability', line: 4 },
      { kind: 'invalid_value', format: 'json-ld', type: 'Offer', property: 'offers.availability', value: 'later', expected: 'a member of ItemAvailability', line: 7 },
      { kind: 'unknown_property', format: 'json-ld', type: 'Product', property: 'author', line: 9 },
    ]);
  });

  it('reports nested findings in document order, before the properties after them', () => {
    const item = node('Event', {
      startDate: text('tomorrow', 2),
      offers: nested(node('Offr', {}, { line: 4 }), 3),
      image: nested(node('ImageObject', { url: text('not a url', 8), colour: text('red', 9) }, { line: 7 }), 6),
      doorTime: text('at eight', 11),
    });
    expect(validate([item]).map((finding) => [finding.kind, finding.line])).toEqual([
      ['invalid_value', 2], ['unknown_type', 4], ['invalid_value', 8], ['unknown_property', 9], ['invalid_value', 11],
    ]);
  });

  it('walks each node once, whatever the graph', () => {
    const shared = node('Offer', { colour: text('red', 5) }, { line: 4 });
    const looping = node('Product', { offers: nested(shared) }, { line: 1 });
    looping.properties.push({ name: term('isRelatedTo'), values: [nested(looping)] });
    shared.properties.push({ name: term('itemOffered'), values: [nested(looping)] });
    const findings = validate([looping, node('Event', { offers: nested(shared) })]);
    expect(findings.filter((finding) => finding.kind === 'unknown_property' && finding.property === 'offers.colour')).toHaveLength(1);
  });

  it('walks a very deep nesting without running out of stack', () => {
    let innermost = node('Product', { colour: text('red', 10_001) });
    for (let depth = 0; depth < 10_000; depth += 1) innermost = node([], { offers: nested(node('Offer', { itemOffered: nested(innermost) })) });
    const findings = validate([node('Product', { offers: nested(node('Offer', { itemOffered: nested(innermost) })) })]);
    expect(findings.filter((finding) => finding.kind === 'unknown_property' && finding.line === 10_001)).toHaveLength(1);
  });

  it('does not walk a reference: the node it stands for is judged where it is written', () => {
    const person = node('Person', { colour: text('red', 12) }, { line: 11, id: '#ann' });
    const findings = validate([node('Article', { author: ref('#ann', 2) }), person]);
    expect(findings).toEqual([{ kind: 'unknown_property', format: 'json-ld', type: 'Person', property: 'colour', line: 12 }]);
  });
});

describe('validateStructuredData: the value rules', () => {
  it('1. dates, date-times and times in ISO 8601 where only those are wanted', () => {
    expect(judged('Event', 'startDate', text('2026-05-12'))).toBe('ok');
    expect(judged('Event', 'startDate', text('2026-05-12T19:30:00+02:00'))).toBe('ok');
    expect(judged('Event', 'startDate', text('12/05/2026'))).toBe('Date or DateTime (ISO 8601)');
    expect(judged('Event', 'startDate', text('May 12, 2026'))).toBe('Date or DateTime (ISO 8601)');
    expect(judged('Event', 'startDate', num(2026))).toBe('Date or DateTime (ISO 8601)');
    expect(judged('Event', 'doorTime', text('19:30'))).toBe('ok');
    expect(judged('Event', 'doorTime', text('half past seven'))).toBe('DateTime or Time (ISO 8601)');
    expect(judged('Organization', 'foundingDate', text('1999'))).toBe('ok');
    expect(judged('Organization', 'foundingDate', text('19:30'))).toBe('Date (ISO 8601)');
  });

  it('2. an ISO 8601 duration where only Duration is wanted', () => {
    expect(judged('Recipe', 'cookTime', text('PT30M'))).toBe('ok');
    expect(judged('Recipe', 'cookTime', text('30 minutes'))).toBe('Duration (ISO 8601)');
    expect(judged('Recipe', 'cookTime', num(30))).toBe('Duration (ISO 8601)');
  });

  it('3. a number, or a whole number where only Integer is wanted', () => {
    expect(judged('Article', 'copyrightYear', num(2020))).toBe('ok');
    expect(judged('Article', 'copyrightYear', text('1e3'))).toBe('ok');
    expect(judged('Article', 'copyrightYear', text('twenty twenty'))).toBe('Number');
    expect(judged('Article', 'wordCount', text('300'))).toBe('ok');
    expect(judged('Article', 'wordCount', num(3.5))).toBe('Integer');
    expect(judged('Article', 'wordCount', bool(true))).toBe('Integer');
  });

  it('4. a boolean where only Boolean is wanted', () => {
    for (const right of [bool(false), text('TRUE'), text('https://schema.org/True'), text('http://schema.org/False'), text('schema:False')]) {
      expect(judged('Product', 'isFamilyFriendly', right)).toBe('ok');
    }
    expect(judged('Product', 'isFamilyFriendly', text('yes'))).toBe('Boolean');
    expect(judged('Product', 'isFamilyFriendly', num(1))).toBe('Boolean');
  });

  it('5. a URL, absolute or relative, where URL is wanted and Text is not', () => {
    expect(judged('Product', 'url', text('https://example.com/p'))).toBe('ok');
    expect(judged('Product', 'url', text('/p?id=3'))).toBe('ok');
    expect(judged('Product', 'url', text('the product page'))).toBe('URL');
    expect(judged('Product', 'image', text('my photo.jpg'))).toBe('URL');
    expect(judged('Product', 'image', nested(node('ImageObject')))).toBe('ok');
  });

  it('6. a member of the enumeration, bare, as a schema.org IRI or as a node @id', () => {
    for (const right of [text('InStock'), text('https://schema.org/InStock'), text('http://schema.org/OutOfStock'), text('schema:InStock'), ref('https://schema.org/OutOfStock')]) {
      expect(judged('Offer', 'availability', right)).toBe('ok');
    }
    expect(judged('Offer', 'availability', text('in stock'))).toBe('a member of ItemAvailability');
    expect(judged('Offer', 'availability', text('https://schema.org/True'))).toBe('a member of ItemAvailability');
    expect(judged('Offer', 'availability', ref('https://example.com/stock'))).toBe('a member of ItemAvailability');
  });

  it('7. no object where only data types are wanted, but JSON-LD value objects are data', () => {
    expect(judged('Product', 'name', nested(node('Thing')))).toBe('a data value, not an object');
    expect(judged('Product', 'url', nested(node([], { name: text('Home') })))).toBe('a data value, not an object');
    expect(judged('Recipe', 'cookTime', nested(node('Duration')))).toBe('a data value, not an object');
    expect(judged('Product', 'name', text('Lamp', 1, true))).toBe('ok');
    expect(judged('Event', 'startDate', text('2026-05-12', 1, true))).toBe('ok');
    expect(judged('Event', 'startDate', text('someday', 1, true))).toBe('Date or DateTime (ISO 8601)');
  });

  it('8. an object of a known type that is no range type nor a subtype of one', () => {
    expect(judged('Product', 'offers', nested(node('AggregateOffer')))).toBe('ok');
    expect(judged('Product', 'offers', nested(node([])))).toBe('ok');
    expect(judged('Product', 'offers', nested(node(['Person', 'ex:Seller'])))).toBe('Offer or Demand');
    expect(judged('Product', 'offers', nested(node('ex:Deal')))).toBe('ok');
    expect(judged('Product', 'description', nested(node('TextObject')))).toBe('ok');
    expect(judged('Product', 'description', nested(node('Person')))).toBe('TextObject');
  });

  it('8. resolves a reference by its @id for its types', () => {
    const seller = node('Person', {}, { line: 20, id: '#seller' });
    const offer = node('Offer', {}, { line: 30, id: '#offer' });
    expect(validate([node('Product', { offers: [ref('#seller', 2), ref('#offer', 3), ref('#nowhere', 4)] }), seller, offer])).toEqual([
      { kind: 'invalid_value', format: 'json-ld', type: 'Product', property: 'offers', value: '{…}', expected: 'Offer or Demand', line: 2 },
    ]);
  });

  it('takes any string, number or boolean where Text is in the range', () => {
    for (const value of [text('12 euros'), num(12), bool(false)]) expect(judged('Offer', 'price', value)).toBe('ok');
  });

  it('judges no value that is not there: null, a blank string, {}', () => {
    for (const absent of [{ kind: 'null', line: 1 } as const, text(''), text('  ', 1, true), nested(node([]))]) {
      expect(judged('Offer', 'availability', absent)).toBe('ok');
      expect(judged('Event', 'startDate', absent)).toBe('ok');
      expect(judged('Product', 'url', absent)).toBe('ok');
    }
  });

  it('judges no value of a property unknown to its type', () => {
    expect(validate([node('Product', { startDate: text('someday', 2) })])).toEqual([
      { kind: 'unknown_property', format: 'json-ld', type: 'Product', property: 'startDate', line: 2 },
    ]);
  });
});

describe('validateStructuredData against schema.org 30.0', () => {
  it('knows its types, properties, ranges and members', () => {
    const product = node('Product', {
      name: text('Lamp'),
      image: text('/lamp.jpg'),
      offers: nested(node('Offer', { price: text('29.99'), availability: text('https://schema.org/InStock'), priceValidUntil: text('2026-12-31') })),
      aggregateRating: nested(node('AggregateRating', { ratingValue: num(4.5), reviewCount: num(12) })),
    });
    expect(validate([product], schemaOrg)).toEqual([]);
  });

  it('finds what the contract names: a misspelt type, colour, startDate on a Product, a bad date, an offer that is a Person', () => {
    const findings = validate(
      [
        node('Prodcut', { colour: text('red') }, { line: 1 }),
        node('Product', { colour: text('red', 3), startDate: text('2026-05-12', 4), offers: nested(node('Person', {}, { line: 5 }), 5) }, { line: 2 }),
        node('Event', { startDate: text('12/05/2026', 7), offers: nested(node('Offer', { availability: text('in stock', 9) }, { line: 8 }), 8) }, { line: 6 }),
      ],
      schemaOrg,
    );
    expect(findings).toEqual([
      { kind: 'unknown_type', format: 'json-ld', type: 'Prodcut', line: 1 },
      { kind: 'unknown_property', format: 'json-ld', type: 'Product', property: 'colour', line: 3 },
      { kind: 'unknown_property', format: 'json-ld', type: 'Product', property: 'startDate', line: 4 },
      { kind: 'invalid_value', format: 'json-ld', type: 'Product', property: 'offers', value: '{@type: Person}', expected: 'Demand or Offer', line: 5 },
      { kind: 'invalid_value', format: 'json-ld', type: 'Event', property: 'startDate', value: '12/05/2026', expected: 'Date or DateTime (ISO 8601)', line: 7 },
      { kind: 'invalid_value', format: 'json-ld', type: 'Offer', property: 'offers.availability', value: 'in stock', expected: 'a member of ItemAvailability', line: 9 },
    ]);
  });

  it('takes the Boolean members and durations as schema.org defines them', () => {
    expect(validate([node('Product', { isFamilyFriendly: text('https://schema.org/False') }), node('Recipe', { cookTime: text('PT1H') })], schemaOrg)).toEqual([]);
    expect(validate([node('Recipe', { cookTime: text('an hour', 2) })], schemaOrg)).toMatchObject([{ kind: 'invalid_value', expected: 'Duration (ISO 8601)' }]);
  });
});
