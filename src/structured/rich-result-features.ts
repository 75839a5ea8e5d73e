// Google's rich-result features as data (docs/structured-data.md, "Rich-result features"): which items
// each feature matches and what its "Structured data type definitions" require and recommend, read on
// FEATURES_READ from Google Search Central. When Google changes a page, change its rows and the date.

const FEATURES_READ = '2026-12-01';
const GOOGLE_PAGES = 'https://developers.google.com/search/docs/appearance/structured-data/';
const SIMPLIFYING_SEARCH_RESULTS = 'https://developers.google.com/search/blog/2025/06/simplifying-search-results';

export type Level = 'required' | 'recommended';

/** A test on an entity: the item, or one value of a row's parent path (an offer, a location). */
export type EntityCondition =
  | {
      kind: 'type';
      /** Any of them, or a subtype (by the vocabulary). */
      types: readonly string[];
      /** An entity with no schema.org type (or a plain value) passes too. */
      orUntyped?: boolean;
      negate?: boolean;
    }
  | { kind: 'value'; property: string; equals: string; negate?: boolean };

/** One row of a feature's table. */
export interface FeatureRow {
  /**
   * A path from the item (`name`, `offers.price`), or alternatives of which one must be present, joined
   * by `|` and sharing their parent (`review|aggregateRating|offers`, `mainEntity.acceptedAnswer|mainEntity.suggestedAnswer`).
   */
  path: string;
  level: Level;
  /** The row holds only for items written with one of these types (exactly): a per-type table. */
  itemTypes?: readonly string[];
  /** The row holds only where the entity the property belongs to passes this. */
  when?: EntityCondition;
  /** A path from that same entity whose presence satisfies the row too (`priceSpecification.price`). */
  orElse?: string;
  /** The row does not hold for the parent's last value as written (the breadcrumb's last ListItem). */
  exceptLast?: boolean;
  /** An entity value must be of one of these types or a subtype (strings and untyped entities pass). */
  entityTypes?: readonly string[];
  /** The text's length in characters, inclusive. */
  length?: readonly [number, number];
}

export interface RichResultFeature {
  /** As Google's documentation names it ("Product snippets"). */
  feature: string;
  types: readonly string[];
  /** Subtypes of `types` match too ("and subtypes"). */
  subtypes: boolean;
  /** Items of one of these types, or of a subtype, never match (Organization: local businesses). */
  excludes?: readonly string[];
  /** The item matches only when this property is present (holding a value of `ofType`, when given). */
  needs?: { property: string; ofType?: string };
  source: string;
  read: string;
  /** null, or the date Google retired the feature. */
  retired: string | null;
  rows: readonly FeatureRow[];
}

/** The value rules every feature applies wherever the property (a path's last name) is in its table. */
export type ValueRule = 'date' | 'duration' | 'price' | 'currency' | 'rating' | 'count' | 'position' | 'url' | 'image' | 'list_item';

export const VALUE_RULES: Readonly<Record<string, ValueRule>> = {
  datePublished: 'date', dateModified: 'date', dateCreated: 'date', datePosted: 'date', validThrough: 'date',
  startDate: 'date', endDate: 'date', uploadDate: 'date', priceValidUntil: 'date',
  cookTime: 'duration', prepTime: 'duration', totalTime: 'duration', duration: 'duration',
  price: 'price', lowPrice: 'price',
  priceCurrency: 'currency',
  ratingValue: 'rating', bestRating: 'rating', worstRating: 'rating',
  ratingCount: 'count', reviewCount: 'count', answerCount: 'count', upvoteCount: 'count',
  position: 'position',
  url: 'url', thumbnailUrl: 'url', contentUrl: 'url', embedUrl: 'url', sameAs: 'url', license: 'url', acquireLicensePage: 'url',
  // An image may be a URL or an ImageObject with url or contentUrl; a logo is an image.
  image: 'image', logo: 'image',
  // A ListItem's `item`: a URL when given as a string, any entity otherwise.
  item: 'list_item',
};

/** Text properties that must be a non-empty string where a table requires them. */
export const REQUIRED_TEXT: ReadonlySet<string> = new Set(['name', 'headline', 'title', 'description', 'text']);

type RowOptions = Omit<FeatureRow, 'path' | 'level'>;
const required = (path: string, options: RowOptions = {}): FeatureRow => ({ path, level: 'required', ...options });
const recommended = (path: string, options: RowOptions = {}): FeatureRow => ({ path, level: 'recommended', ...options });
const requiredAll = (...paths: string[]) => paths.map((path) => required(path));
const recommendedAll = (...paths: string[]) => paths.map((path) => recommended(path));

const isA = (...types: string[]): EntityCondition => ({ kind: 'type', types });
const isNotA = (...types: string[]): EntityCondition => ({ kind: 'type', types, negate: true });
const isAOrUntyped = (...types: string[]): EntityCondition => ({ kind: 'type', types, orUntyped: true });
const telecommute = (negate: boolean): EntityCondition => ({ kind: 'value', property: 'jobLocationType', equals: 'TELECOMMUTE', negate });

/**
 * Wherever a present aggregateRating or review is judged, it needs these (errors, whatever the level of
 * the row that lists it): written once, added to every table that lists aggregateRating or review.
 */
const RATING_ROWS: Readonly<Record<'aggregateRating' | 'review', readonly FeatureRow[]>> = {
  aggregateRating: requiredAll('aggregateRating.ratingValue', 'aggregateRating.ratingCount|aggregateRating.reviewCount'),
  review: requiredAll('review.author', 'review.reviewRating', 'review.reviewRating.ratingValue'),
};

function withRatingRows(rows: readonly FeatureRow[]): FeatureRow[] {
  const listed = new Set(rows.flatMap((row) => row.path.split('|')));
  const added = (['aggregateRating', 'review'] as const).filter((name) => listed.has(name)).flatMap((name) => RATING_ROWS[name]);
  return [...rows, ...added];
}

function current(feature: string, types: string[], subtypes: boolean, page: string, rows: FeatureRow[], more: Partial<RichResultFeature> = {}): RichResultFeature {
  return { feature, types, subtypes, source: GOOGLE_PAGES + page, read: FEATURES_READ, retired: null, rows: withRatingRows(rows), ...more };
}

function retired(feature: string, types: string[], date: string, source: string, more: Partial<RichResultFeature> = {}): RichResultFeature {
  return { feature, types, subtypes: false, source, read: FEATURES_READ, retired: date, rows: [], ...more };
}

const OFFER_PRICE = required('offers.price', { when: isNotA('AggregateOffer'), orElse: 'priceSpecification.price' });
const AGGREGATE_OFFER_LOW_PRICE = required('offers.lowPrice', { when: isA('AggregateOffer') });

export const EVENT_TYPES = [
  'Event', 'BusinessEvent', 'ChildrensEvent', 'ComedyEvent', 'DanceEvent', 'EducationEvent', 'ExhibitionEvent', 'Festival', 'FoodEvent',
  'Hackathon', 'LiteraryEvent', 'MusicEvent', 'SaleEvent', 'ScreeningEvent', 'SocialEvent', 'SportsEvent', 'TheaterEvent', 'VisualArtsEvent',
];

/** The 17 current features, then the 6 retired ones, in the order of the documentation's tables. */
export const RICH_RESULT_FEATURES: readonly RichResultFeature[] = [
  current('Article', ['Article', 'NewsArticle', 'BlogPosting'], false, 'article',
    recommendedAll('author', 'author.name', 'author.url', 'dateModified', 'datePublished', 'headline', 'image')),
  current('Breadcrumb', ['BreadcrumbList'], false, 'breadcrumb', [
    required('itemListElement'),
    required('itemListElement.position'),
    required('itemListElement.name', { orElse: 'item.name' }),
    required('itemListElement.item', { exceptLast: true }),
  ]),
  current('Product snippets', ['Product'], true, 'product-snippet', [
    required('name'),
    required('review|aggregateRating|offers'),
    OFFER_PRICE,
    AGGREGATE_OFFER_LOW_PRICE,
    ...recommendedAll('aggregateRating', 'offers', 'review', 'offers.availability'),
    // Google's snippet page does not name priceSpecification here; its merchant page does, for the same offer.
    recommended('offers.priceCurrency', { orElse: 'priceSpecification.priceCurrency' }),
    recommended('offers.priceValidUntil'),
  ]),
  current('Merchant listings', ['Product'], true, 'merchant-listing', [
    ...requiredAll('name', 'image', 'offers'),
    OFFER_PRICE,
    AGGREGATE_OFFER_LOW_PRICE,
    required('offers.priceCurrency', { orElse: 'priceSpecification.priceCurrency' }),
    ...recommendedAll('aggregateRating', 'brand', 'description', 'gtin|gtin8|gtin12|gtin13|gtin14|isbn|mpn', 'review', 'sku',
      'offers.availability', 'offers.hasMerchantReturnPolicy', 'offers.itemCondition', 'offers.shippingDetails'),
  ], { needs: { property: 'offers' } }),
  current('Review snippet', ['Review', 'AggregateRating'], false, 'review-snippet', [
    ...['author', 'itemReviewed', 'itemReviewed.name', 'reviewRating', 'reviewRating.ratingValue'].map((path) => required(path, { itemTypes: ['Review'] })),
    ...['datePublished', 'reviewRating.bestRating', 'reviewRating.worstRating'].map((path) => recommended(path, { itemTypes: ['Review'] })),
    ...['itemReviewed', 'itemReviewed.name', 'ratingValue', 'ratingCount|reviewCount'].map((path) => required(path, { itemTypes: ['AggregateRating'] })),
    ...['bestRating', 'worstRating'].map((path) => recommended(path, { itemTypes: ['AggregateRating'] })),
  ]),
  current('Q&A', ['QAPage'], false, 'qapage', [
    ...requiredAll('mainEntity', 'mainEntity.name', 'mainEntity.answerCount', 'mainEntity.acceptedAnswer|mainEntity.suggestedAnswer',
      'mainEntity.acceptedAnswer.text', 'mainEntity.suggestedAnswer.text'),
    ...recommendedAll('mainEntity.author', 'mainEntity.datePublished', 'mainEntity.text', 'mainEntity.acceptedAnswer.url', 'mainEntity.suggestedAnswer.url'),
  ]),
  current('Event', EVENT_TYPES, false, 'event', [
    ...requiredAll('name', 'startDate', 'location'),
    required('location.address', { when: isAOrUntyped('Place') }),
    required('location.url', { when: isA('VirtualLocation') }),
    ...recommendedAll('description', 'endDate', 'eventAttendanceMode', 'eventStatus', 'image', 'location.name', 'offers', 'organizer', 'performer'),
  ]),
  current('Job posting', ['JobPosting'], false, 'job-posting', [
    ...requiredAll('datePosted', 'description', 'hiringOrganization', 'title'),
    required('jobLocation', { when: telecommute(true) }),
    required('applicantLocationRequirements', { when: telecommute(false) }),
    ...recommendedAll('baseSalary', 'directApply', 'employmentType', 'identifier', 'validThrough'),
  ]),
  current('Local business', ['LocalBusiness'], true, 'local-business', [
    ...requiredAll('name', 'address'),
    ...recommendedAll('aggregateRating', 'geo', 'openingHoursSpecification', 'priceRange', 'review', 'telephone', 'url'),
  ]),
  current('Organization', ['Organization'], true, 'organization',
    recommendedAll('address', 'description', 'email', 'logo', 'name', 'sameAs', 'telephone', 'url'),
    { excludes: ['LocalBusiness'] }),
  current('Recipe', ['Recipe'], false, 'recipe', [
    ...requiredAll('image', 'name'),
    ...recommendedAll('aggregateRating', 'author', 'cookTime', 'datePublished', 'description', 'keywords', 'nutrition.calories', 'prepTime',
      'recipeCategory', 'recipeCuisine', 'recipeIngredient', 'recipeInstructions', 'recipeYield', 'totalTime', 'video'),
  ]),
  current('Video', ['VideoObject'], false, 'video', [
    ...requiredAll('name', 'thumbnailUrl', 'uploadDate'),
    ...recommendedAll('contentUrl|embedUrl', 'description', 'duration'),
  ]),
  current('Software app', ['SoftwareApplication', 'MobileApplication', 'WebApplication', 'VideoGame'], false, 'software-app', [
    ...requiredAll('name', 'offers', 'offers.price', 'aggregateRating|review'),
    ...recommendedAll('applicationCategory', 'operatingSystem'),
  ]),
  current('Dataset', ['Dataset'], false, 'dataset', [
    required('name'),
    required('description', { length: [50, 5000] }),
    ...recommendedAll('creator', 'distribution', 'license', 'url'),
  ]),
  current('Profile page', ['ProfilePage'], false, 'profile-page', [
    required('mainEntity', { entityTypes: ['Person', 'Organization'] }),
    required('mainEntity.name'),
    ...recommendedAll('dateCreated', 'dateModified', 'mainEntity.alternateName', 'mainEntity.description', 'mainEntity.identifier',
      'mainEntity.image', 'mainEntity.sameAs'),
  ]),
  current('Discussion forum', ['DiscussionForumPosting', 'SocialMediaPosting'], false, 'discussion-forum', [
    ...requiredAll('author', 'author.name', 'datePublished', 'text|image|video'),
    ...recommendedAll('author.url', 'dateModified', 'headline', 'url'),
  ]),
  current('Image metadata', ['ImageObject'], false, 'image-license-metadata', [
    ...requiredAll('contentUrl', 'creator|creditText|copyrightNotice|license'),
    ...recommendedAll('acquireLicensePage', 'creator', 'creditText', 'copyrightNotice', 'license'),
  ]),

  retired('FAQ', ['FAQPage'], '2026-05-07', GOOGLE_PAGES + 'faqpage'),
  retired('HowTo', ['HowTo'], '2023-09-13', 'https://developers.google.com/search/blog/2023/08/howto-faq-changes'),
  // A WebSite still serves site names: only one offering a search box is the retired feature's.
  retired('Sitelinks search box', ['WebSite'], '2024-11-21', GOOGLE_PAGES + 'sitelinks-searchbox',
    { needs: { property: 'potentialAction', ofType: 'SearchAction' } }),
  retired('Fact check', ['ClaimReview'], '2025-06-12', SIMPLIFYING_SEARCH_RESULTS),
  retired('Special announcement', ['SpecialAnnouncement'], '2025-06-12', SIMPLIFYING_SEARCH_RESULTS),
  retired('Estimated salary', ['Occupation'], '2025-06-12', SIMPLIFYING_SEARCH_RESULTS),
];

export interface FeatureCatalogueEntry {
  feature: string;
  types: string[];
  subtypes: boolean;
  retired: string | null;
  source: string;
  read: string;
}

/** Every feature as `GET /api/v1/checks` lists it on `rich_results`, in the documentation's order. */
export function richResultFeatureCatalogue(): FeatureCatalogueEntry[] {
  return RICH_RESULT_FEATURES.map(({ feature, types, subtypes, retired: date, source, read }) => ({
    feature, types: [...types], subtypes, retired: date, source, read,
  }));
}
