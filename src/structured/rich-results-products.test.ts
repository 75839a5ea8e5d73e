// Product snippets, Merchant listings, Review snippet and Software app, judged on items built in code.
import { describe, expect, it } from 'vitest';
import { entryOf, errorsOf, extraction, invalid, judge, missing, node, type NodeSpec, omit, short, warningsOf, withValue } from './test-nodes.ts';

const review = () => node('Review', { author: node('Person', { name: 'Ann' }), reviewRating: node('Rating', { ratingValue: 5 }) });
const rating = () => node('AggregateRating', { ratingValue: 4.5, reviewCount: 12 });
const offer = () =>
  node('Offer', {
    price: '89.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock', priceValidUntil: '2027-01-01',
    hasMerchantReturnPolicy: node('MerchantReturnPolicy', { returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow' }),
    itemCondition: 'https://schema.org/NewCondition', shippingDetails: node('OfferShippingDetails', { shippingRate: node('MonetaryAmount', { value: 0 }) }),
  });
const product = () =>
  node('Product', {
    name: 'Trail shoe', image: 'https://example.com/shoe.jpg', description: 'A light trail shoe.', brand: node('Brand', { name: 'Acme' }),
    sku: 'TS-1', gtin13: '4006381333931', offers: offer(), aggregateRating: rating(), review: review(),
  });

describe('Product snippets', () => {
  it('finds nothing wrong with a complete product, and matches Product subtypes', () => {
    expect(entryOf(product(), 'Product snippets')).toMatchObject({ valid: true, retired: null, errors: [], warnings: [] });
    const car = withValue(product(), 'offers', offer());
    car.types = ['Car'];
    expect(entryOf(car, 'Product snippets')).toMatchObject({ type: 'Car', valid: true });
  });

  it('requires a name', () => {
    expect(errorsOf(omit(product(), 'name'), 'Product snippets')).toEqual([missing('name', 'The required property name is missing.')]);
  });

  it('requires one of review, aggregateRating or offers, and recommends each not given', () => {
    const bare = node('Product', { name: 'Trail shoe' });
    expect(errorsOf(bare, 'Product snippets')).toEqual([
      missing('review|aggregateRating|offers', 'One of review, aggregateRating or offers is required.'),
    ]);
    expect(warningsOf(bare, 'Product snippets')).toEqual([
      missing('aggregateRating', 'The recommended property aggregateRating is missing.'),
      missing('offers', 'The recommended property offers is missing.'),
      missing('review', 'The recommended property review is missing.'),
    ]);
    const reviewed = node('Product', { name: 'Trail shoe', review: review() });
    expect(entryOf(reviewed, 'Product snippets').valid).toBe(true);
  });

  it('requires an offer\'s price, which a priceSpecification.price satisfies, and an AggregateOffer\'s lowPrice', () => {
    expect(errorsOf(omit(product(), 'offers.price'), 'Product snippets')).toEqual([
      missing('offers.price', 'The required property price (or priceSpecification.price) is missing.'),
    ]);
    const specified = withValue(omit(product(), 'offers.price'), 'offers.priceSpecification', node('UnitPriceSpecification', { price: 89, priceCurrency: 'EUR' }));
    expect(errorsOf(specified, 'Product snippets')).toEqual([]);
    const aggregate = withValue(product(), 'offers', node('AggregateOffer', { lowPrice: '19.99', highPrice: '29.99', priceCurrency: 'EUR', offerCount: 3 }));
    expect(errorsOf(aggregate, 'Product snippets')).toEqual([]);
    expect(errorsOf(omit(aggregate, 'offers.lowPrice'), 'Product snippets')).toEqual([missing('offers.lowPrice', 'The required property lowPrice is missing.')]);
  });

  it('takes an untyped offer, and a plain value where an offer is wanted, for an Offer without properties', () => {
    expect(errorsOf(withValue(product(), 'offers', node('', { priceCurrency: 'EUR' })), 'Product snippets')).toEqual([
      missing('offers.price', 'The required property price (or priceSpecification.price) is missing.'),
    ]);
    expect(errorsOf(withValue(product(), 'offers', '99'), 'Product snippets')).toEqual([
      missing('offers.price', 'The required property price (or priceSpecification.price) is missing.'),
    ]);
  });

  it('judges each offer of several', () => {
    const offers = withValue(product(), 'offers', [offer(), withValue(offer(), 'price', '€89'), omit(offer(), 'price')]);
    expect(errorsOf(offers, 'Product snippets')).toEqual([
      invalid('offers.price', 'The offer\'s price must be a number, without currency sign.'),
      missing('offers.price', 'The required property price (or priceSpecification.price) is missing.'),
    ]);
  });

  it.each([['€89'], ['89,00'], ['about ninety euros'], ['-5'], ['1 299']])('rejects the price %j', (price) => {
    const entry = entryOf(withValue(product(), 'offers.price', price), 'Product snippets');
    expect(entry.valid).toBe(false);
    expect(entry.errors).toEqual([expect.objectContaining({ ...invalid('offers.price', 'The offer\'s price must be a number, without currency sign.'), value: price })]);
  });

  it.each([['89.00'], ['89'], [0], [19.5]])('accepts the price %j', (price) => {
    expect(errorsOf(withValue(product(), 'offers.price', price), 'Product snippets')).toEqual([]);
  });

  it('judges a priceSpecification.price by the price rule too', () => {
    const specified = withValue(omit(product(), 'offers.price'), 'offers.priceSpecification', node('PriceSpecification', { price: '89,00' }));
    expect(errorsOf(specified, 'Product snippets')).toEqual([
      invalid('offers.priceSpecification.price', 'The offer\'s price must be a number, without currency sign.'),
    ]);
  });

  it('warns about missing or wrong recommended offer properties', () => {
    const plain = node('Product', { name: 'Trail shoe', offers: node('Offer', { price: 5 }) });
    expect(warningsOf(plain, 'Product snippets')).toEqual([
      missing('aggregateRating', 'The recommended property aggregateRating is missing.'),
      missing('review', 'The recommended property review is missing.'),
      missing('offers.availability', 'The recommended property availability is missing.'),
      missing('offers.priceCurrency', 'The recommended property priceCurrency (or priceSpecification.priceCurrency) is missing.'),
      missing('offers.priceValidUntil', 'The recommended property priceValidUntil is missing.'),
    ]);
    const wrong = withValue(withValue(product(), 'offers.availability', 'in stock'), 'offers.priceValidUntil', '31/12/2026');
    const entry = entryOf(wrong, 'Product snippets');
    expect(entry.valid).toBe(true);
    expect(entry.warnings.map(short)).toEqual([
      invalid('offers.availability', 'The property availability must be of the kind schema.org expects: a member of ItemAvailability.'),
      invalid('offers.priceValidUntil', 'The property priceValidUntil must be an ISO 8601 date or date-time.'),
    ]);
  });

  it('holds a present aggregateRating to ratingValue and a count, whatever lists it', () => {
    expect(errorsOf(withValue(product(), 'aggregateRating', node('AggregateRating', { reviewCount: 3 })), 'Product snippets')).toEqual([
      missing('aggregateRating.ratingValue', 'The required property ratingValue is missing.'),
    ]);
    expect(errorsOf(withValue(product(), 'aggregateRating', node('AggregateRating', { ratingValue: '4.5' })), 'Product snippets')).toEqual([
      missing('aggregateRating.ratingCount|aggregateRating.reviewCount', 'One of ratingCount or reviewCount is required.'),
    ]);
    expect(errorsOf(withValue(product(), 'aggregateRating', node('AggregateRating', { ratingValue: 'great', ratingCount: '12 ratings' })), 'Product snippets')).toEqual([
      invalid('aggregateRating.ratingValue', 'The property ratingValue must be a number.'),
      invalid('aggregateRating.ratingCount', 'The property ratingCount must be a whole number, 0 or more.'),
    ]);
  });

  it('holds a present review to an author and reviewRating.ratingValue, a missing reviewRating being one error', () => {
    expect(errorsOf(omit(product(), 'review.author'), 'Product snippets')).toEqual([missing('review.author', 'The required property author is missing.')]);
    expect(errorsOf(omit(product(), 'review.reviewRating'), 'Product snippets')).toEqual([
      missing('review.reviewRating', 'The required property reviewRating is missing.'),
    ]);
    expect(errorsOf(omit(product(), 'review.reviewRating.ratingValue'), 'Product snippets')).toEqual([
      missing('review.reviewRating.ratingValue', 'The required property ratingValue is missing.'),
    ]);
  });
});

describe('Merchant listings', () => {
  it('judges a product only when it has offers', () => {
    expect(judge(omit(product(), 'offers')).map((entry) => entry.feature)).toEqual(['Product snippets']);
    expect(judge(withValue(product(), 'offers', '')).map((entry) => entry.feature)).toEqual(['Product snippets']);
    expect(judge(product()).map((entry) => entry.feature)).toEqual(['Product snippets', 'Merchant listings']);
  });

  it('finds nothing wrong with a complete product', () => {
    expect(entryOf(product(), 'Merchant listings')).toMatchObject({ valid: true, errors: [], warnings: [] });
  });

  it.each([
    ['name', 'The required property name is missing.'],
    ['image', 'The required property image is missing.'],
    ['offers.price', 'The required property price (or priceSpecification.price) is missing.'],
    ['offers.priceCurrency', 'The required property priceCurrency (or priceSpecification.priceCurrency) is missing.'],
  ])('requires %s', (property, message) => {
    expect(errorsOf(omit(product(), property), 'Merchant listings')).toEqual([missing(property, message)]);
  });

  it('takes the price and currency from a priceSpecification, and an AggregateOffer\'s lowPrice', () => {
    const specified = withValue(omit(omit(product(), 'offers.price'), 'offers.priceCurrency'), 'offers.priceSpecification',
      node('UnitPriceSpecification', { price: '89.00', priceCurrency: 'EUR' }));
    expect(errorsOf(specified, 'Merchant listings')).toEqual([]);
    const aggregate = withValue(product(), 'offers', node('AggregateOffer', { lowPrice: 10 }));
    expect(errorsOf(aggregate, 'Merchant listings')).toEqual([missing('offers.priceCurrency', 'The required property priceCurrency (or priceSpecification.priceCurrency) is missing.')]);
  });

  it.each([['euro'], ['eur'], ['€'], ['EURO']])('rejects the currency %j', (currency) => {
    expect(errorsOf(withValue(product(), 'offers.priceCurrency', currency), 'Merchant listings')).toEqual([
      invalid('offers.priceCurrency', 'The property priceCurrency must be a currency code of three capital letters (ISO 4217).'),
    ]);
  });

  it('accepts an image as a URL or an ImageObject with a url or contentUrl, nothing else', () => {
    expect(errorsOf(withValue(product(), 'image', node('ImageObject', { contentUrl: '/shoe.jpg' })), 'Merchant listings')).toEqual([]);
    expect(errorsOf(withValue(product(), 'image', node('', { url: 'https://example.com/shoe.jpg' })), 'Merchant listings')).toEqual([]);
    const message = 'The property image must be a URL or an ImageObject with a url or contentUrl.';
    expect(errorsOf(withValue(product(), 'image', node('ImageObject', { caption: 'A shoe' })), 'Merchant listings')).toEqual([invalid('image', message)]);
    expect(errorsOf(withValue(product(), 'image', node('Person', { url: 'https://example.com/a' })), 'Merchant listings')).toEqual([invalid('image', message)]);
    expect(errorsOf(withValue(product(), 'image', 'a shoe.jpg'), 'Merchant listings')).toEqual([invalid('image', message)]);
    expect(errorsOf(withValue(product(), 'image', 42), 'Merchant listings')).toEqual([invalid('image', message)]);
  });

  it('recommends the identifiers as alternatives and the offer details', () => {
    const plain = node('Product', { name: 'Shoe', image: '/s.jpg', offers: node('Offer', { price: 1, priceCurrency: 'EUR' }) });
    expect(warningsOf(plain, 'Merchant listings')).toEqual([
      missing('aggregateRating', 'The recommended property aggregateRating is missing.'),
      missing('brand', 'The recommended property brand is missing.'),
      missing('description', 'The recommended property description is missing.'),
      missing('gtin|gtin8|gtin12|gtin13|gtin14|isbn|mpn', 'One of gtin, gtin8, gtin12, gtin13, gtin14, isbn or mpn is recommended.'),
      missing('review', 'The recommended property review is missing.'),
      missing('sku', 'The recommended property sku is missing.'),
      missing('offers.availability', 'The recommended property availability is missing.'),
      missing('offers.hasMerchantReturnPolicy', 'The recommended property hasMerchantReturnPolicy is missing.'),
      missing('offers.itemCondition', 'The recommended property itemCondition is missing.'),
      missing('offers.shippingDetails', 'The recommended property shippingDetails is missing.'),
    ]);
    expect(warningsOf(withValue(plain, 'mpn', 'X-1'), 'Merchant listings').map((warning) => warning.property)).not.toContain('gtin|gtin8|gtin12|gtin13|gtin14|isbn|mpn');
  });

  it('holds a present aggregateRating to its rows although Merchant listings only recommends it', () => {
    const entry = entryOf(withValue(product(), 'aggregateRating', node('AggregateRating', { ratingCount: 2 })), 'Merchant listings');
    expect(entry.valid).toBe(false);
    expect(entry.errors.map(short)).toEqual([missing('aggregateRating.ratingValue', 'The required property ratingValue is missing.')]);
  });
});

describe('Review snippet', () => {
  const reviewItem = () =>
    node('Review', {
      author: node('Person', { name: 'Ann' }), itemReviewed: node('Product', { name: 'Trail shoe' }), datePublished: '2026-03-01',
      reviewRating: node('Rating', { ratingValue: '4', bestRating: '5', worstRating: '1' }),
    });
  const ratingItem = () => node('AggregateRating', { itemReviewed: node('Restaurant', { name: 'Chez Ann' }), ratingValue: 4.2, ratingCount: 80, bestRating: 5, worstRating: 1 });

  it('finds nothing wrong with a complete Review or AggregateRating item', () => {
    expect(judge(reviewItem())).toEqual([expect.objectContaining({ feature: 'Review snippet', type: 'Review', valid: true, errors: [], warnings: [] })]);
    expect(judge(ratingItem())).toEqual([expect.objectContaining({ feature: 'Review snippet', type: 'AggregateRating', valid: true, errors: [], warnings: [] })]);
  });

  it.each([
    ['author', 'The required property author is missing.'],
    ['itemReviewed', 'The required property itemReviewed is missing.'],
    ['itemReviewed.name', 'The required property name is missing.'],
    ['reviewRating', 'The required property reviewRating is missing.'],
    ['reviewRating.ratingValue', 'The required property ratingValue is missing.'],
  ])('requires %s of a Review', (property, message) => {
    expect(errorsOf(omit(reviewItem(), property), 'Review snippet')).toEqual([missing(property, message)]);
  });

  it.each([
    ['itemReviewed', 'The required property itemReviewed is missing.'],
    ['itemReviewed.name', 'The required property name is missing.'],
    ['ratingValue', 'The required property ratingValue is missing.'],
  ])('requires %s of an AggregateRating', (property, message) => {
    expect(errorsOf(omit(ratingItem(), property), 'Review snippet')).toEqual([missing(property, message)]);
  });

  it('requires one of ratingCount or reviewCount of an AggregateRating, either will do', () => {
    expect(errorsOf(omit(ratingItem(), 'ratingCount'), 'Review snippet')).toEqual([missing('ratingCount|reviewCount', 'One of ratingCount or reviewCount is required.')]);
    expect(errorsOf(withValue(omit(ratingItem(), 'ratingCount'), 'reviewCount', '7'), 'Review snippet')).toEqual([]);
  });

  it('judges each type by its own table', () => {
    expect(warningsOf(node('AggregateRating', { itemReviewed: node('Book', { name: 'B' }), ratingValue: 3, ratingCount: 1 }), 'Review snippet')).toEqual([
      missing('bestRating', 'The recommended property bestRating is missing.'),
      missing('worstRating', 'The recommended property worstRating is missing.'),
    ]);
    expect(warningsOf(omit(omit(reviewItem(), 'datePublished'), 'reviewRating.bestRating'), 'Review snippet')).toEqual([
      missing('datePublished', 'The recommended property datePublished is missing.'),
      missing('reviewRating.bestRating', 'The recommended property bestRating is missing.'),
    ]);
  });

  it('rejects a rating that is no number', () => {
    expect(errorsOf(withValue(reviewItem(), 'reviewRating.ratingValue', 'four stars'), 'Review snippet')).toEqual([
      invalid('reviewRating.ratingValue', 'The property ratingValue must be a number.'),
    ]);
    expect(errorsOf(withValue(ratingItem(), 'ratingCount', -3), 'Review snippet')).toEqual([
      invalid('ratingCount', 'The property ratingCount must be a whole number, 0 or more.'),
    ]);
    expect(warningsOf(withValue(ratingItem(), 'bestRating', 'top'), 'Review snippet')).toEqual([invalid('bestRating', 'The property bestRating must be a number.')]);
  });

  it('matches Review and AggregateRating exactly, and never a review nested in another item', () => {
    const critic = reviewItem();
    critic.types = ['CriticReview'];
    expect(judge(critic)).toEqual([]);
    expect(judge(product()).map((entry) => entry.feature)).not.toContain('Review snippet');
  });
});

describe('Software app', () => {
  const app = () =>
    node('SoftwareApplication', {
      name: 'Notes', offers: node('Offer', { price: 0, priceCurrency: 'EUR' }), aggregateRating: node('AggregateRating', { ratingValue: 4.6, ratingCount: 8864 }),
      applicationCategory: 'BusinessApplication', operatingSystem: 'Android',
    });

  it('finds nothing wrong with a complete app, of each type the table lists', () => {
    for (const type of ['SoftwareApplication', 'MobileApplication', 'WebApplication', 'VideoGame']) {
      const spec = app();
      spec.types = [type];
      expect(judge(spec)).toEqual([expect.objectContaining({ feature: 'Software app', type, valid: true, errors: [], warnings: [] })]);
    }
  });

  it.each([
    ['name', 'The required property name is missing.'],
    ['offers', 'The required property offers is missing.'],
    ['offers.price', 'The required property price is missing.'],
  ])('requires %s', (property, message) => {
    expect(errorsOf(omit(app(), property), 'Software app')).toEqual([missing(property, message)]);
  });

  it('requires one of aggregateRating or review, a review being held to its own rows', () => {
    expect(errorsOf(omit(app(), 'aggregateRating'), 'Software app')).toEqual([missing('aggregateRating|review', 'One of aggregateRating or review is required.')]);
    expect(errorsOf(withValue(omit(app(), 'aggregateRating'), 'review', node('Review', { author: 'Ann' })), 'Software app')).toEqual([
      missing('review.reviewRating', 'The required property reviewRating is missing.'),
    ]);
  });

  it('rejects a price that is no number, and warns about the recommended ones', () => {
    expect(errorsOf(withValue(app(), 'offers.price', 'free'), 'Software app')).toEqual([
      invalid('offers.price', 'The offer\'s price must be a number, without currency sign.'),
    ]);
    expect(warningsOf(omit(omit(app(), 'operatingSystem'), 'applicationCategory'), 'Software app')).toEqual([
      missing('applicationCategory', 'The recommended property applicationCategory is missing.'),
      missing('operatingSystem', 'The recommended property operatingSystem is missing.'),
    ]);
  });
});
