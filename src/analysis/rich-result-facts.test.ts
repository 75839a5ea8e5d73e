// A crawled page's rich-result errors become the distinct (type, property, message) the crawl keeps:
// judged entries in, triples out, wired into the page's crawl facts. The judge is stood in for here, so
// what is tested is the keeping; the judging has tests of its own, and test/crawl/rich-result-errors
// crawls real markup.
import { describe, expect, it, vi } from 'vitest';
import type { RichResultEntry } from '../structured/structured-types.ts';
import { makeContext } from '../../test/support/check-context.ts';
import { analyzePage } from './analyze-page.ts';
import { MAX_RICH_RESULT_ERROR_TEXT, MAX_RICH_RESULT_ERRORS_PER_PAGE, richResultErrorFacts } from './rich-result-facts.ts';

const judged = vi.hoisted(() => ({ entries: [] as RichResultEntry[] }));
vi.mock('../structured/judge.ts', () => ({
  judgeStructuredData: () => ({ extraction: { present: true, formats: ['json-ld'], items: [], problems: [], byId: new Map() }, validation: [], richResults: judged.entries }),
}));

const ONE_OF = { property: 'review|aggregateRating|offers', message: 'One of review, aggregateRating or offers is required.' };
const IMAGE = { property: 'image', message: 'The required property image is missing.' };
const PRICE = { property: 'offers.price', message: 'The offer\'s price must be a number, without currency sign.' };

function entry(feature: string, type: string, errors: { property: string; message: string; value?: string }[], retired: string | null = null): RichResultEntry {
  return {
    feature,
    type,
    line: 5,
    valid: retired === null ? errors.length === 0 : null,
    retired,
    errors: errors.map((error, index) => ({ kind: error.value === undefined ? 'missing_property' : 'invalid_value', ...error, line: 6 + index })),
    warnings: [{ kind: 'missing_property', property: 'offers.availability', message: 'The recommended property availability is missing.', line: 9 }],
  };
}

describe('rich-result errors as a crawl keeps them', () => {
  it('keeps each (type, property, message) once, in the order first met, without lines, values or warnings', () => {
    const entries = [
      entry('Product snippets', 'Product', [PRICE, ONE_OF]),
      entry('Merchant listings', 'Product', [IMAGE, PRICE]),
      // The same problem on an item of another type is another triple.
      entry('Software app', 'SoftwareApplication', [PRICE]),
      // Found again on another item of the page, with its own value and line: the same problem.
      entry('Product snippets', 'Product', [{ ...PRICE, value: 'about ninety euros' }]),
    ];
    expect(richResultErrorFacts(entries)).toEqual([
      { type: 'Product', ...PRICE },
      { type: 'Product', ...ONE_OF },
      { type: 'Product', ...IMAGE },
      { type: 'SoftwareApplication', ...PRICE },
    ]);
  });

  it('never keeps an error of a retired feature, and nothing for a page without errors', () => {
    expect(richResultErrorFacts([entry('FAQ', 'FAQPage', [{ property: 'mainEntity', message: 'Missing.' }], '2026-05-07'), entry('Breadcrumb', 'BreadcrumbList', [])])).toEqual([]);
    expect(richResultErrorFacts([])).toEqual([]);
  });

  it('cuts each part at 200 characters, so a page\'s own type names cost a bounded number of bytes', () => {
    const long = `Product ${'x'.repeat(5000)}`;
    const facts = richResultErrorFacts([entry('Product snippets', long, [ONE_OF]), entry('Merchant listings', `${long}y`, [ONE_OF])]);
    expect(MAX_RICH_RESULT_ERROR_TEXT).toBe(200);
    expect(facts).toEqual([{ type: long.slice(0, 200), ...ONE_OF }]);
    // Nor a NUL or half a character, which PostgreSQL would refuse to read back.
    const cutPair = `${'x'.repeat(199)}\u{1F600}`;
    expect(richResultErrorFacts([entry('Product snippets', `Pro\u0000duct`, [ONE_OF]), entry('Product snippets', cutPair, [ONE_OF])]).map((fact) => fact.type)).toEqual([
      'Product',
      `${'x'.repeat(199)}\uFFFD`,
    ]);
  });

  it('keeps the first 100 distinct triples of a page, however many it has', () => {
    const many = Array.from({ length: 150 }, (_, n) => ({ property: `p${n}`, message: `The required property p${n} is missing.` }));
    const facts = richResultErrorFacts([entry('Recipe', 'Recipe', many.slice(0, 60)), entry('Recipe', 'Recipe', many)]);
    expect(MAX_RICH_RESULT_ERRORS_PER_PAGE).toBe(100);
    expect(facts).toHaveLength(100);
    expect(facts.map((fact) => fact.property)).toEqual(many.slice(0, 100).map((error) => error.property));
  });

  it('puts them in the crawl facts of an analysed page, from the judgement of its snapshot', () => {
    const crawl = { host: 'example.com', robotsTxt: null, robotsToken: 'pagegrade', maxLinks: 1000 };
    const facts = () => {
      const { page } = makeContext({ page: { requestedUrl: 'https://example.com/p/1', finalUrl: 'https://example.com/p/1', html: '<title>P</title>' } });
      return analyzePage(page, makeContext().origin, makeContext().thresholds, undefined, new Date(), crawl).crawlFacts!;
    };
    judged.entries = [entry('Product snippets', 'Product', [ONE_OF]), entry('Merchant listings', 'Product', [ONE_OF]), entry('FAQ', 'FAQPage', [IMAGE], '2026-05-07')];
    expect(facts().richResultErrors).toEqual([{ type: 'Product', ...ONE_OF }]);
    judged.entries = [];
    expect(facts().richResultErrors).toEqual([]);
  });
});
