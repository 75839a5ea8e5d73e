// Event, Job posting, Local business and Organization, judged on items built in code.
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from './rich-result-features.ts';
import { entryOf, errorsOf, extraction, invalid, judge, missing, node, type NodeSpec, omit, short, typed, warningsOf, withValue } from './test-nodes.ts';

const address = () => node('PostalAddress', { streetAddress: '1 Main St', addressLocality: 'Springfield' });

describe('Event', () => {
  const event = () =>
    node('Event', {
      name: 'Jazz night', startDate: '2026-07-21T19:00-05:00', endDate: '2026-07-21T23:00-05:00', description: 'Live jazz.',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode', eventStatus: 'https://schema.org/EventScheduled',
      image: 'https://example.com/jazz.jpg', location: node('Place', { name: 'The Hall', address: address() }),
      offers: node('Offer', { price: 30, priceCurrency: 'USD' }), organizer: node('Organization', { name: 'Hall Inc.' }), performer: node('PerformingGroup', { name: 'Trio' }),
    });

  it('finds nothing wrong with a complete event, of each type the table lists and no other', () => {
    for (const type of EVENT_TYPES) expect(judge(typed(event(), [type]))).toEqual([expect.objectContaining({ feature: 'Event', type, valid: true, errors: [], warnings: [] })]);
    expect(judge(typed(event(), ['DeliveryEvent']))).toEqual([]);
  });

  it.each([
    ['name', 'The required property name is missing.'],
    ['startDate', 'The required property startDate is missing.'],
    ['location', 'The required property location is missing.'],
    ['location.address', 'The required property address is missing.'],
  ])('requires %s', (property, message) => {
    expect(errorsOf(omit(event(), property), 'Event')).toEqual([missing(property, message)]);
  });

  it('requires an address of a Place (a subtype too) or an untyped location, and a url of a VirtualLocation', () => {
    expect(errorsOf(withValue(event(), 'location', node('EventVenue', { name: 'Hall' })), 'Event')).toEqual([missing('location.address', 'The required property address is missing.')]);
    expect(errorsOf(withValue(event(), 'location', node('', { name: 'Hall' })), 'Event')).toEqual([missing('location.address', 'The required property address is missing.')]);
    expect(errorsOf(withValue(event(), 'location', 'The Hall, Springfield'), 'Event')).toEqual([missing('location.address', 'The required property address is missing.')]);
    expect(errorsOf(withValue(event(), 'location', node('VirtualLocation', { url: 'https://example.com/live' })), 'Event')).toEqual([]);
    expect(errorsOf(withValue(event(), 'location', node('VirtualLocation', { name: 'Stream' })), 'Event')).toEqual([missing('location.url', 'The required property url is missing.')]);
    expect(errorsOf(withValue(event(), 'location', node('VirtualLocation', { url: 'live stream' })), 'Event')).toEqual([invalid('location.url', 'The property url must be a URL.')]);
  });

  it('judges each location of a mixed event by its own type', () => {
    const mixed = withValue(event(), 'location', [node('Place', { name: 'Hall' }), node('VirtualLocation', { name: 'Stream' })]);
    expect(errorsOf(mixed, 'Event')).toEqual([
      missing('location.address', 'The required property address is missing.'),
      missing('location.url', 'The required property url is missing.'),
    ]);
  });

  it.each([['12/05/2026'], ['May 12, 2026'], [20260512], ['2026-13-01']])('rejects the startDate %j', (startDate) => {
    expect(errorsOf(withValue(event(), 'startDate', startDate), 'Event')).toEqual([
      invalid('startDate', 'The property startDate must be an ISO 8601 date or date-time.'),
    ]);
  });

  it('warns about recommended properties missing or wrong', () => {
    const bare = node('MusicEvent', { name: 'Jazz', startDate: '2026-07-21', location: node('Place', { address: 'Main St 1' }) });
    expect(warningsOf(bare, 'Event').map((warning) => warning.property)).toEqual([
      'description', 'endDate', 'eventAttendanceMode', 'eventStatus', 'image', 'location.name', 'offers', 'organizer', 'performer',
    ]);
    const cancelled = withValue(event(), 'eventStatus', 'cancelled');
    expect(entryOf(cancelled, 'Event')).toMatchObject({ valid: true });
    expect(warningsOf(cancelled, 'Event')).toEqual([
      invalid('eventStatus', 'The property eventStatus must be of the kind schema.org expects: a member of EventStatusType.'),
    ]);
  });

  it('requires the name to be text', () => {
    expect(errorsOf(withValue(event(), 'name', node('Thing', { name: 'x' })), 'Event')).toEqual([invalid('name', 'The property name must be non-empty text.')]);
  });
});

describe('Job posting', () => {
  const job = () =>
    node('JobPosting', {
      title: 'Baker', description: '<p>Bake bread.</p>', datePosted: '2026-11-01', validThrough: '2027-01-01T00:00',
      hiringOrganization: node('Organization', { name: 'Bakery', sameAs: 'https://bakery.example' }),
      jobLocation: node('Place', { address: address() }), employmentType: 'FULL_TIME', identifier: node('PropertyValue', { name: 'Bakery', value: '1234' }),
      directApply: true, baseSalary: node('MonetaryAmount', { currency: 'USD', value: node('QuantitativeValue', { value: 40, unitText: 'HOUR' }) }),
    });

  it('finds nothing wrong with a complete posting', () => {
    expect(entryOf(job(), 'Job posting')).toMatchObject({ valid: true, errors: [], warnings: [] });
  });

  it.each([
    ['datePosted', 'The required property datePosted is missing.'],
    ['description', 'The required property description is missing.'],
    ['hiringOrganization', 'The required property hiringOrganization is missing.'],
    ['title', 'The required property title is missing.'],
    ['jobLocation', 'The required property jobLocation is missing.'],
  ])('requires %s', (property, message) => {
    expect(errorsOf(omit(job(), property), 'Job posting')).toEqual([missing(property, message)]);
  });

  it('requires applicantLocationRequirements instead of jobLocation for a TELECOMMUTE job', () => {
    const remote = withValue(omit(job(), 'jobLocation'), 'jobLocationType', 'TELECOMMUTE');
    expect(errorsOf(remote, 'Job posting')).toEqual([
      missing('applicantLocationRequirements', 'The required property applicantLocationRequirements is missing.'),
    ]);
    expect(errorsOf(withValue(remote, 'applicantLocationRequirements', node('Country', { name: 'USA' })), 'Job posting')).toEqual([]);
    expect(errorsOf(withValue(omit(job(), 'jobLocation'), 'jobLocationType', 'ONSITE'), 'Job posting')).toEqual([
      missing('jobLocation', 'The required property jobLocation is missing.'),
    ]);
  });

  it('rejects wrong values of required and recommended properties', () => {
    expect(errorsOf(withValue(job(), 'datePosted', 'yesterday'), 'Job posting')).toEqual([
      invalid('datePosted', 'The property datePosted must be an ISO 8601 date or date-time.'),
    ]);
    expect(errorsOf(withValue(job(), 'title', 42), 'Job posting')).toEqual([invalid('title', 'The property title must be non-empty text.')]);
    const entry = entryOf(withValue(withValue(job(), 'directApply', 'yes'), 'validThrough', 'soon'), 'Job posting');
    expect(entry.valid).toBe(true);
    expect(entry.warnings.map(short)).toEqual([
      invalid('directApply', 'The property directApply must be of the kind schema.org expects: Boolean.'),
      invalid('validThrough', 'The property validThrough must be an ISO 8601 date or date-time.'),
    ]);
  });
});

describe('Local business', () => {
  const business = () =>
    node('Restaurant', {
      name: 'Chez Ann', address: address(), geo: node('GeoCoordinates', { latitude: 40.7, longitude: -74 }), telephone: '+1-555-0100',
      url: 'https://chez-ann.example', priceRange: '$$', openingHoursSpecification: node('OpeningHoursSpecification', { dayOfWeek: 'https://schema.org/Monday', opens: '11:00', closes: '22:00' }),
      aggregateRating: node('AggregateRating', { ratingValue: 4, reviewCount: 250 }), review: node('Review', { author: node('Person', { name: 'Bo' }), reviewRating: node('Rating', { ratingValue: 4 }) }),
    });

  it('finds nothing wrong with a complete business, judged as a local business only, of LocalBusiness subtypes', () => {
    expect(judge(business())).toEqual([expect.objectContaining({ feature: 'Local business', type: 'Restaurant', valid: true, errors: [], warnings: [] })]);
    expect(judge(typed(business(), ['Dentist'])).map((entry) => entry.feature)).toEqual(['Local business']);
    expect(judge(typed(business(), ['LocalBusiness'])).map((entry) => entry.feature)).toEqual(['Local business']);
  });

  it.each([
    ['name', 'The required property name is missing.'],
    ['address', 'The required property address is missing.'],
  ])('requires %s', (property, message) => {
    expect(errorsOf(omit(business(), property), 'Local business')).toEqual([missing(property, message)]);
  });

  it('warns about a url that is no URL, and holds a present review to its rows', () => {
    expect(warningsOf(withValue(business(), 'url', 'chez ann'), 'Local business')).toEqual([invalid('url', 'The property url must be a URL.')]);
    expect(errorsOf(omit(business(), 'review.author'), 'Local business')).toEqual([missing('review.author', 'The required property author is missing.')]);
  });
});

describe('Organization', () => {
  const organization = () =>
    node('Organization', {
      name: 'Acme', url: 'https://acme.example', logo: 'https://acme.example/logo.png', sameAs: ['https://x.example/acme', 'https://y.example/acme'],
      description: 'Makes anvils.', email: 'hello@acme.example', telephone: '+1-555-0101', address: address(),
    });

  it('finds nothing wrong with a complete organization, and matches its subtypes', () => {
    expect(judge(organization())).toEqual([expect.objectContaining({ feature: 'Organization', valid: true, errors: [], warnings: [] })]);
    expect(judge(typed(organization(), ['Corporation'])).map((entry) => entry.feature)).toEqual(['Organization']);
    expect(judge(typed(organization(), ['NewsMediaOrganization'])).map((entry) => entry.feature)).toEqual(['Organization']);
  });

  it('requires nothing: an empty organization is valid, with a warning per recommended property', () => {
    const entry = entryOf(node('Organization'), 'Organization');
    expect(entry.valid).toBe(true);
    expect(entry.warnings.map((warning) => warning.property)).toEqual(['address', 'description', 'email', 'logo', 'name', 'sameAs', 'telephone', 'url']);
  });

  it('leaves local businesses to Local business, also when the item names Organization too', () => {
    expect(judge(typed(organization(), ['Store'])).map((entry) => entry.feature)).toEqual(['Local business']);
    expect(judge(typed(organization(), ['Organization', 'Restaurant'])).map((entry) => entry.feature)).toEqual(['Local business']);
  });

  it('warns about a logo or sameAs that is no URL', () => {
    expect(warningsOf(withValue(organization(), 'logo', node('ImageObject', { caption: 'logo' })), 'Organization')).toEqual([
      invalid('logo', 'The property logo must be a URL or an ImageObject with a url or contentUrl.'),
    ]);
    expect(warningsOf(withValue(organization(), 'sameAs', ['https://x.example/acme', '@acme on X']), 'Organization')).toEqual([
      invalid('sameAs', 'The property sameAs must be a URL.'),
    ]);
  });
});
