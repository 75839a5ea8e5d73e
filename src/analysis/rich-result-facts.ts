// A page's rich-result errors as a crawl keeps them (docs/structured-data.md, "Crawls"): what the site
// check rich_result_errors groups pages by. A finding's message never holds the page's values, so one
// problem reads the same (type, property, message) on every page; lines and values are left out, since
// they differ from page to page and the page's report has them.
import type { RichResultEntry } from '../structured/structured-types.ts';
import type { PageCrawlFacts } from './types.ts';

export type RichResultErrorFact = PageCrawlFacts['richResultErrors'][number];

/** Distinct errors kept per page: every problem of a real page, and a bound on what a crafted one costs. */
export const MAX_RICH_RESULT_ERRORS_PER_PAGE = 100;
/**
 * Characters kept of each part. Properties and messages come from pagegrade's tables, but a type is
 * as the page wrote it (`"@type": ["Product", "<100 KB>"]`), and a crawl stores every page's.
 */
export const MAX_RICH_RESULT_ERROR_TEXT = 200;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Cut, and made storable in either database: PostgreSQL's jsonb, which the site check reads the
 * stored array as, refuses a NUL (`"\u0000"` in the page's JSON-LD) and a lone surrogate (a cut pair).
 */
function storable(text: string): string {
  return text.slice(0, MAX_RICH_RESULT_ERROR_TEXT).replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Each distinct (type, property, message) once, in the order first met, of the entries of current
 * features: a retired feature has no errors to give, and is skipped all the same. An item judged for
 * two features (Product snippets, Merchant listings) with the same missing property counts it once.
 */
export function richResultErrorFacts(entries: readonly RichResultEntry[]): RichResultErrorFact[] {
  const facts: RichResultErrorFact[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.retired !== null) continue;
    const type = storable(entry.type);
    for (const error of entry.errors) {
      const property = storable(error.property);
      const message = storable(error.message);
      const key = JSON.stringify([type, property, message]);
      if (seen.has(key)) continue;
      seen.add(key);
      facts.push({ type, property, message });
      if (facts.length >= MAX_RICH_RESULT_ERRORS_PER_PAGE) return facts;
    }
  }
  return facts;
}
