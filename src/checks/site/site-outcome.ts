// How site checks hand on what they find: sorted, so a crawl's issues read the same on every run, and
// capped, so a site with 50,000 broken links stores a page of examples and the true count.
import { MAX_PAGES_PER_ITEM, MAX_SITE_ITEMS, type SiteCheckOutcome } from './site-check.ts';

/** Plain code-unit order: the same on every machine, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first MAX_PAGES_PER_ITEM of a list of page URLs, sorted; the item keeps the full count beside it. */
export function firstPages(urls: readonly string[]): string[] {
  return [...urls].sort(compareText).slice(0, MAX_PAGES_PER_ITEM);
}

/** Every finding counted, the first MAX_SITE_ITEMS kept in the order `compare` gives. */
export function siteOutcome<T>(findings: readonly T[], compare: (a: T, b: T) => number): SiteCheckOutcome {
  return { count: findings.length, items: [...findings].sort(compare).slice(0, MAX_SITE_ITEMS) };
}

/** Items naming many pages first (they matter most), then by URL. */
export function byPageCountThenUrl<T>(count: (item: T) => number, url: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => count(b) - count(a) || compareText(url(a), url(b));
}
