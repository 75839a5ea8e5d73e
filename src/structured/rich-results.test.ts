// How items are matched and judged whatever the feature: entries and their order, presence, nested
// paths, references, lines, messages, retired features, and the feature tables as data. Each feature's
// own rows are tested in rich-results-products, -places and -content.test.ts.
import { describe, expect, it } from 'vitest';
import { judgeRichResults } from './rich-results.ts';
import { RICH_RESULT_FEATURES, richResultFeatureCatalogue } from './rich-result-features.ts';
import { at, extraction, node, ref, withValue, type NodeSpec } from './test-nodes.ts';
import type { StructuredExtraction, Vocabulary } from './structured-types.ts';
import { schemaOrg } from './vocabulary.ts';

const PAGE = 'https://example.com/page';
const judgeAll = (data: StructuredExtraction, vocabulary: Vocabulary = schemaOrg) => judgeRichResults(data, vocabulary, PAGE);
const judge = (...items: NodeSpec[]) => judgeAll(extraction(...items));
const features = (...items: NodeSpec[]) => judge(...items).map((entry) => entry.feature);
const errorsOf = (...items: NodeSpec[]) => judge(...items).flatMap((entry) => entry.errors);

describe('matching items to features', () => {
  it('gives one entry per matching feature, in the order of the items, then of the tables', () => {
    const entries = judge(
      node('BreadcrumbList', { itemListElement: node('ListItem', { position: 1, name: 'Home' }) }),
      node('Product', { name: 'Shoe', offers: node('Offer', { price: 1 }) }),
      node('Event', { name: 'Jazz', startDate: '2026-01-01', location: node('Place', { address: 'Main St' }) }),
    );
    expect(entries.map(({ feature, type }) => [feature, type])).toEqual([
      ['Breadcrumb', 'BreadcrumbList'], ['Product snippets', 'Product'], ['Merchant listings', 'Product'], ['Event', 'Event'],
    ]);
  });

  it('matches an item by any of its types, its type as the report lists it', () => {
    const entries = judge(node(['Product', 'MusicEvent', 'ex:Widget'], { name: 'Gig ticket' }));
    expect(entries.map(({ feature, type }) => [feature, type])).toEqual([['Product snippets', 'Product MusicEvent ex:Widget'], ['Event', 'Product MusicEvent ex:Widget']]);
    expect(judge(node('https://schema.org/Recipe', { name: 'Pie', image: '/pie.jpg' }))).toEqual([
      expect.objectContaining({ feature: 'Recipe', type: 'Recipe', valid: true }),
    ]);
  });

  it('matches items only: entities nested in an item are judged with it, never on their own', () => {
    expect(features(node('WebPage', { mainEntity: node('Recipe', { name: 'Pie' }), about: node('Event', { name: 'x' }) }))).toEqual([]);
    expect(features(node('Article', { image: node('ImageObject', { contentUrl: '/a.jpg' }), author: node('Organization', { name: 'A' }) }))).toEqual(['Article']);
  });

  it('does not match types of other vocabularies, unknown types, or a page without items', () => {
    expect(features(node('ex:Product', { name: 'x' }), node('Prodcut', { name: 'x' }), node('product', { name: 'x' }))).toEqual([]);
    expect(judgeAll(extraction())).toEqual([]);
  });

  it('reads subtypes through the vocabulary it is given', () => {
    const parents: Record<string, string[]> = { Thing: [], Product: ['Thing'], Gadget: ['Product'], Offer: ['Thing'], AggregateOffer: ['Offer'] };
    const ancestors = (name: string): Set<string> => new Set(name in parents ? [name, ...parents[name].flatMap((parent) => [...ancestors(parent)])] : []);
    const tiny: Vocabulary = {
      version: 'test', isClass: (name) => name in parents, isProperty: () => true, ancestors, isSubclassOf: (name, of) => ancestors(name).has(of),
      domains: () => [], ranges: () => [], isDataType: () => false, isEnumeration: () => false, isMemberOf: () => false,
    };
    const entries = judgeAll(extraction(node('Gadget', { name: 'G', offers: node('AggregateOffer', { lowPrice: 'cheap' }) })), tiny);
    expect(entries.map((entry) => entry.feature)).toEqual(['Product snippets', 'Merchant listings']);
    expect(entries[0].errors).toEqual([expect.objectContaining({ property: 'offers.lowPrice', kind: 'invalid_value' })]);
  });
});

describe('presence', () => {
  it.each([
    ['an empty string', ''], ['white space', ' \n\t'], ['null', null], ['no value ([])', []], ['an empty object', node('')],
  ])('takes %s for a missing property', (_label, name) => {
    expect(errorsOf(node('Recipe', { name: name as string, image: '/pie.jpg' }))).toEqual([expect.objectContaining({ kind: 'missing_property', property: 'name' })]);
  });

  it('takes a property with one real value among empty ones for present, and judges only the real one', () => {
    expect(errorsOf(node('Recipe', { name: [null, '', 'Pie'], image: '/pie.jpg' }))).toEqual([]);
  });

  it('gives a missing parent one error, not one per nested path', () => {
    expect(errorsOf(node('Product', { name: 'Shoe', image: '/s.jpg', review: node('Review', { author: 'Ann' }) }))).toEqual([
      expect.objectContaining({ property: 'review.reviewRating' }),
    ]);
    expect(errorsOf(node('Event', { name: 'Jazz', startDate: '2026-01-01' }))).toEqual([expect.objectContaining({ property: 'location' })]);
  });

  it('judges nested paths of a plain value where an entity is wanted as missing, at the line of its property', () => {
    const entry = judge(node('Event', { name: 'Jazz', startDate: '2026-01-01', location: at(7, 'Town hall') }, { line: 3 }))[0];
    expect(entry.errors).toEqual([{ kind: 'missing_property', property: 'location.address', message: 'The required property address is missing.', line: 7 }]);
  });
});

describe('references (@id)', () => {
  it('judges the page\'s node a reference stands for, where it is written', () => {
    const offer = node('Offer', { price: at(12, 'ninety'), priceCurrency: 'EUR' }, { id: '#offer', line: 10 });
    const data = extraction(node('Product', { name: 'Shoe', image: '/s.jpg', offers: ref('#offer') }, { line: 1 }), node('WebPage', { mainEntity: offer }));
    const [snippet] = judgeAll(data);
    expect(snippet.errors).toEqual([
      { kind: 'invalid_value', property: 'offers.price', message: 'The offer\'s price must be a number, without currency sign.', value: 'ninety', line: 12 },
    ]);
    const missing = extraction(
      node('Product', { name: 'Shoe', offers: ref('#offer') }),
      node('WebPage', { mainEntity: node('Offer', { priceCurrency: 'EUR' }, { id: '#offer', line: 20 }) }),
    );
    expect(judgeAll(missing)[0].errors).toEqual([expect.objectContaining({ property: 'offers.price', line: 20 })]);
  });

  it('resolves references at any depth, and through a node that refers back', () => {
    const author = node('Person', { name: 'Ann', knows: ref('#post') }, { id: '#ann' });
    const post = node('DiscussionForumPosting', { author: ref('#ann'), datePublished: '2026-01-01', text: 'Hi' }, { id: '#post' });
    expect(judge(post, node('WebPage', { about: author }))[0]).toMatchObject({ feature: 'Discussion forum', valid: true });
  });

  it('takes a reference to no node of the page for an entity without properties, at the reference\'s line', () => {
    const entry = judge(node('DiscussionForumPosting', { author: at(4, ref('#nobody')), datePublished: '2026-01-01', text: 'Hi' }))[0];
    expect(entry.errors).toEqual([{ kind: 'missing_property', property: 'author.name', message: 'The required property name is missing.', line: 4 }]);
  });
});

describe('lines', () => {
  const shoe = () =>
    node('Product', {
      name: 'Shoe', image: '/s.jpg',
      offers: [at(5, node('Offer', { price: at(6, 'x'), priceCurrency: 'EUR' })), at(8, node('Offer', { priceCurrency: 'EUR' }))],
    }, { line: 2 });

  it('puts an entry on its item\'s line, a missing property on the line where the entity lacking it starts, a wrong value on its own', () => {
    const entries = judge(shoe());
    expect(entries.map((entry) => entry.line)).toEqual([2, 2]);
    expect(entries[1].errors.map(({ property, line }) => [property, line])).toEqual([['offers.price', 6], ['offers.price', 8]]);
    expect(entries[0].warnings.find((warning) => warning.property === 'review')?.line).toBe(2);
  });

  it('cuts a wrong value at 100 characters', () => {
    const long = 'not a url '.repeat(30);
    const [entry] = judge(node('Recipe', { name: 'Pie', image: long }));
    expect(entry.errors[0].value).toHaveLength(100);
  });
});

describe('messages', () => {
  it('read the same for the same problem whatever the page\'s values, and never contain them', () => {
    const priceMessages = ['€89', 'about ninety euros', '12,50'].map((price) => {
      const [entry] = judge(node('Product', { name: `Shoe ${price}`, offers: node('Offer', { price }) }));
      const message = entry.errors[0].message;
      expect(message).not.toContain(price);
      return message;
    });
    expect(new Set(priceMessages)).toEqual(new Set(['The offer\'s price must be a number, without currency sign.']));
  });

  it('never hold a page value, across every feature', () => {
    const marker = 'zq-marker';
    const bad = { name: node('Thing'), headline: 7, image: `${marker} .jpg`, datePublished: marker, startDate: marker, location: marker, offers: node('Offer', { price: marker, priceCurrency: marker }) };
    const items = RICH_RESULT_FEATURES.map((feature) => node(feature.types[0], bad));
    for (const entry of judge(...items)) {
      for (const finding of [...entry.errors, ...entry.warnings]) expect(finding.message).not.toContain(marker);
    }
  });
});

describe('retired features', () => {
  it.each([
    ['FAQ', 'FAQPage', '2026-05-07'],
    ['HowTo', 'HowTo', '2023-09-13'],
    ['Fact check', 'ClaimReview', '2025-06-12'],
    ['Special announcement', 'SpecialAnnouncement', '2025-06-12'],
    ['Estimated salary', 'Occupation', '2025-06-12'],
  ])('lists %s (%s) as retired on %s: no error, one warning on @type', (feature, type, date) => {
    expect(judge(node(type, { name: 'anything' }, { line: 4 }))).toEqual([
      {
        feature, type, line: 4, valid: null, retired: date, errors: [],
        warnings: [{ kind: 'invalid_value', property: '@type', message: `Google retired the ${feature} rich result on ${date}; the markup stays valid schema.org.`, line: 4 }],
      },
    ]);
  });

  it('judges a FAQPage as retired however incomplete it is', () => {
    expect(judge(node('FAQPage', { mainEntity: node('Question', {}) }))[0]).toMatchObject({ valid: null, errors: [] });
  });

  it('lists a WebSite as the sitelinks search box only when its potentialAction holds a SearchAction, warning at that property', () => {
    const search = node('SearchAction', { target: 'https://example.com/?q={q}', 'query-input': 'required name=q' });
    // JSON-LD: the line of the potentialAction key (line 4), not of the action's `{`.
    expect(judge(node('WebSite', { name: 'Site', potentialAction: [node('ReadAction'), at(6, search)] }, { line: 2 }))).toEqual([
      {
        feature: 'Sitelinks search box', type: 'WebSite', line: 2, valid: null, retired: '2024-11-21', errors: [],
        warnings: [{ kind: 'invalid_value', property: 'potentialAction', message: 'Google retired the Sitelinks search box rich result on 2024-11-21; the markup stays valid schema.org.', line: 4 }],
      },
    ]);
    expect(judge(node('WebSite', { name: 'Site', url: 'https://example.com/' }))).toEqual([]);
    expect(judge(node('WebSite', { potentialAction: node('ReadAction') }))).toEqual([]);
  });

  it('matches HowTo exactly: a Recipe, a HowTo subtype, is a Recipe', () => {
    expect(features(node('Recipe', { name: 'Pie', image: '/p.jpg' }))).toEqual(['Recipe']);
  });
});

describe('the feature tables', () => {
  it('hold the 17 current features and the 6 retired ones, in the documentation\'s order', () => {
    expect(RICH_RESULT_FEATURES.filter((feature) => feature.retired === null).map((feature) => feature.feature)).toEqual([
      'Article', 'Breadcrumb', 'Product snippets', 'Merchant listings', 'Review snippet', 'Q&A', 'Event', 'Job posting', 'Local business',
      'Organization', 'Recipe', 'Video', 'Software app', 'Dataset', 'Profile page', 'Discussion forum', 'Image metadata',
    ]);
    expect(RICH_RESULT_FEATURES.filter((feature) => feature.retired !== null).map((feature) => [feature.feature, feature.retired])).toEqual([
      ['FAQ', '2026-05-07'], ['HowTo', '2023-09-13'], ['Sitelinks search box', '2024-11-21'], ['Fact check', '2025-06-12'],
      ['Special announcement', '2025-06-12'], ['Estimated salary', '2025-06-12'],
    ]);
  });

  it('name only schema.org 30.0 types and properties, alternatives sharing their parent', () => {
    for (const feature of RICH_RESULT_FEATURES) {
      for (const type of [...feature.types, ...(feature.excludes ?? [])]) expect(schemaOrg.isClass(type), `${feature.feature}: ${type}`).toBe(true);
      for (const row of feature.rows) {
        const alternatives = row.path.split('|').map((path) => path.split('.'));
        const parents = new Set(alternatives.map((path) => path.slice(0, -1).join('.')));
        expect(parents.size, `${feature.feature}: ${row.path}`).toBe(1);
        const names = [...alternatives.flat(), ...(row.orElse?.split('.') ?? [])];
        for (const name of names) expect(schemaOrg.isProperty(name), `${feature.feature}: ${name}`).toBe(true);
      }
    }
  });

  it('give the catalogue for GET /api/v1/checks', () => {
    const catalogue = richResultFeatureCatalogue();
    expect(catalogue).toHaveLength(23);
    expect(catalogue[2]).toEqual({
      feature: 'Product snippets', types: ['Product'], subtypes: true, retired: null,
      source: 'https://developers.google.com/search/docs/appearance/structured-data/product-snippet', read: '2026-12-01',
    });
    expect(catalogue.find((entry) => entry.feature === 'FAQ')).toEqual({
      feature: 'FAQ', types: ['FAQPage'], subtypes: false, retired: '2026-05-07',
      source: 'https://developers.google.com/search/docs/appearance/structured-data/faqpage', read: '2026-12-01',
    });
    expect(catalogue.find((entry) => entry.feature === 'HowTo')?.source).toBe('https://developers.google.com/search/blog/2023/08/howto-faq-changes');
    expect(catalogue.filter((entry) => entry.subtypes).map((entry) => entry.feature)).toEqual(['Product snippets', 'Merchant listings', 'Local business', 'Organization']);
    for (const entry of catalogue) expect(entry.source).toMatch(/^https:\/\/developers\.google\.com\/search\//);
  });
});

describe('withValue and the builders', () => {
  it('lay out properties one a line, a nested object opening on its property\'s line', () => {
    const data = extraction(withValue(node('Product', { name: 'Shoe', offers: node('Offer', { price: 1 }) }), 'sku', 'S'));
    const [item] = data.items;
    expect(item.line).toBe(1);
    expect(item.properties.map((property) => [property.name.schema, property.values[0].line])).toEqual([['name', 2], ['offers', 3], ['sku', 5]]);
    expect(item.properties[1].values[0]).toMatchObject({ kind: 'node', node: { line: 3, properties: [{ values: [{ line: 4 }] }] } });
  });
});
