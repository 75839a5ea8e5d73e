// Test-only: the smallest SiteFacts a site check test needs. Pages are given by path on
// https://example.com (or by full URL), each a fetched 200 HTML page at depth 1 unless it says
// otherwise, and links are written as URLs rather than indexes so a test reads like the site it builds.
import type { CrawledPage, SiteFacts } from './site-check.ts';

const ORIGIN = 'https://example.com';

/** A path on the test site as the crawler stores it: absolute. Full URLs pass through. */
export function at(pathOrUrl: string): string {
  return pathOrUrl.startsWith('/') ? `${ORIGIN}${pathOrUrl}` : pathOrUrl;
}

export type PageSpec = Partial<Omit<CrawledPage, 'url' | 'linksOut' | 'nofollowLinksOut'>> & {
  /** Pages it links to, by path or URL; each must be a page of the site. */
  links?: string[];
  /** Those of `links` (added to them if missing) that carry rel=nofollow. */
  nofollowLinks?: string[];
};

const HTML_200: Omit<CrawledPage, 'url' | 'linksOut' | 'nofollowLinksOut'> = {
  statusCode: 200,
  error: null,
  fetched: true,
  redirectTarget: null,
  redirectHops: 0,
  redirectLoop: false,
  finalStatusCode: 200,
  depth: 1,
  inSitemap: false,
  html: true,
  noindex: false,
  canonical: null,
  title: null,
  description: null,
  textHash: null,
  hreflang: [],
};

/** A URL found but never fetched (past max_pages or max_depth). */
export const UNFETCHED: PageSpec = { fetched: false, statusCode: null, finalStatusCode: null, html: false };

/** A fetched non-HTML answer with this status (a 404, a 500). */
export function answering(statusCode: number): PageSpec {
  return { statusCode, finalStatusCode: statusCode, html: false };
}

/** A page redirecting in `hops` steps to `target` (path or URL), which answers `finalStatusCode`. */
export function redirecting(target: string, hops = 1, finalStatusCode = 200): PageSpec {
  return { statusCode: 301, finalStatusCode, redirectTarget: at(target), redirectHops: hops, html: false };
}

/**
 * The site of these pages, keyed by path or URL, in that order. The start URL is the first page's
 * unless given; `blocked` lists what robots.txt disallows.
 */
export function siteOf(
  pages: Record<string, PageSpec>,
  options: { startUrl?: string; blocked?: string[] } = {},
): SiteFacts {
  const urls = Object.keys(pages).map(at);
  const indexOf = (link: string) => {
    const index = urls.indexOf(at(link));
    if (index < 0) throw new Error(`siteOf: ${link} is linked to but is not a page of the site`);
    return index;
  };
  const built = Object.entries(pages).map(([key, spec]): CrawledPage => {
    const { links = [], nofollowLinks = [], ...facts } = spec;
    const linksOut = [...new Set([...links, ...nofollowLinks].map(indexOf))];
    return {
      ...HTML_200,
      ...facts,
      url: at(key),
      canonical: facts.canonical ? at(facts.canonical) : null,
      hreflang: (facts.hreflang ?? []).map(({ lang, url }) => ({ lang, url: at(url) })),
      linksOut,
      nofollowLinksOut: nofollowLinks.map(indexOf),
    };
  });
  const blocked = new Set((options.blocked ?? []).map(at));
  return {
    startUrl: at(options.startUrl ?? Object.keys(pages)[0]),
    pages: built,
    blockedByRobots: (url) => blocked.has(url),
  };
}
