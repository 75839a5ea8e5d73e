// What several site checks ask of the crawl's pages: who links to whom, which pages share a value,
// which pages could be indexed, and why a URL that ought to be an indexable page is not one.
import type { CrawledPage, SiteCheckOutcome, SiteFacts } from './site-check.ts';
import { byPageCountThenUrl, firstPages, siteOutcome } from './site-outcome.ts';

/** For each page (by index in site.pages), the URLs of the pages that link to it. */
function linkingPages(site: SiteFacts): string[][] {
  const linkers: string[][] = site.pages.map(() => []);
  for (const page of site.pages) {
    for (const target of page.linksOut) linkers[target].push(page.url);
  }
  return linkers;
}

/**
 * One finding per page `describe` picks (null: none; it is told how many pages link to the page), each
 * followed by the pages linking to it (`linked_from`, the first of them, and `linked_from_count`), the
 * most linked first.
 */
export function findingsWithLinkers<T extends { url: string }>(
  site: SiteFacts,
  describe: (page: CrawledPage, linkedFromCount: number) => T | null,
): SiteCheckOutcome {
  const linkers = linkingPages(site);
  const findings = site.pages.flatMap((page, index) => {
    const finding = describe(page, linkers[index].length);
    return finding === null ? [] : [{ ...finding, linked_from: firstPages(linkers[index]), linked_from_count: linkers[index].length }];
  });
  return siteOutcome(findings, byPageCountThenUrl((item) => item.linked_from_count, (item) => item.url));
}

/** The URLs of `pages` by the value `valueOf` gives each, in page order; a null value groups nothing. */
export function urlsByValue(pages: readonly CrawledPage[], valueOf: (page: CrawledPage) => string | null): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const page of pages) {
    const value = valueOf(page);
    if (value === null) continue;
    const group = groups.get(value);
    if (group) group.push(page.url);
    else groups.set(value, [page.url]);
  }
  return groups;
}

export function pagesByUrl(site: SiteFacts): Map<string, CrawledPage> {
  return new Map(site.pages.map((page) => [page.url, page]));
}

/**
 * An HTML page search engines may index under its own URL. A page canonicalised elsewhere has already
 * said which URL speaks for it, so it is no duplicate of that URL.
 */
export function isIndexable(page: CrawledPage): boolean {
  return page.html && !page.noindex && (page.canonical === null || page.canonical === page.url);
}

/**
 * Why `url` (named by a canonical or a sitemap, so meant to be indexed) cannot be indexed as it is: a
 * short reason ("404", "redirects to ...", "noindex", "blocked by robots.txt"), or null when it is fine
 * or was never fetched, so nothing is known of it but robots.txt.
 */
export function notIndexableReason(url: string, page: CrawledPage | undefined, site: SiteFacts): string | null {
  if (site.blockedByRobots(url)) return 'blocked by robots.txt';
  if (!page || !page.fetched) return null;
  if (page.redirectLoop) return 'redirect loop';
  if (page.redirectTarget !== null) return `redirects to ${page.redirectTarget}`;
  if (page.finalStatusCode === null) return 'unreachable';
  if (page.finalStatusCode !== 200) return String(page.finalStatusCode);
  if (page.noindex) return 'noindex';
  return null;
}
