// What a site check is: metadata for people plus a pure `run` over the facts a crawl stored for each
// page (docs/crawls.md). Site checks judge the site as a whole, once every page is in; they do no I/O
// and read no clock.
import type { Importance } from '../check.ts';

/** The compact facts a crawl keeps for one URL it reached (or only found); all URLs normalised. */
export interface CrawledPage {
  url: string;
  /** The first answer's status (a redirect's 3xx); null when the URL was never fetched or failed. */
  statusCode: number | null;
  /** Why it could not be fetched (a sentence), else null. */
  error: string | null;
  /** False for a URL found but never fetched (past max_pages or max_depth). */
  fetched: boolean;
  /** Where its redirects end (on this host or not); null when it did not redirect. */
  redirectTarget: string | null;
  /** How many redirects it took to reach redirectTarget (0 without). */
  redirectHops: number;
  /** Its redirects loop (redirectTarget is then the URL the loop came back to). */
  redirectLoop: boolean;
  /** The final answer's status after redirects on the host (equal to statusCode without redirects). */
  finalStatusCode: number | null;
  /** Clicks from the start page; null for a URL known only from a sitemap. */
  depth: number | null;
  /** Listed in one of the site's sitemaps. */
  inSitemap: boolean;
  /** An HTML page that was analysed (2xx, text/html). The fields below are only set for these. */
  html: boolean;
  /** `noindex`/`none` in its robots meta or X-Robots-Tag. */
  noindex: boolean;
  /** Its canonical URL, absolute and normalised; null without one. */
  canonical: string | null;
  /** Its title (trimmed, whitespace folded, cut at 300 characters); null without one. */
  title: string | null;
  /** Its meta description, as the title; null without one. */
  description: string | null;
  /** A hash of its visible body text after whitespace is folded; null when it has no text. */
  textHash: string | null;
  /** Its hreflang alternates. */
  hreflang: readonly { lang: string; url: string }[];
  /** The pages it links to on this host: indexes into SiteFacts.pages, each once. */
  linksOut: readonly number[];
  /** Those of linksOut that carry rel=nofollow on some link to them. */
  nofollowLinksOut: readonly number[];
}

/** Everything a site check may look at. */
export interface SiteFacts {
  /** The crawl's start URL. */
  startUrl: string;
  /** Every URL on the host the crawl found, robots-disallowed ones excluded. */
  pages: readonly CrawledPage[];
  /** Whether robots.txt keeps the crawler's user agent from this URL (on the crawled host). */
  blockedByRobots(url: string): boolean;
}

/** What a site check finds: how many findings, and the first of them (capped) for people. */
export interface SiteCheckOutcome {
  count: number;
  items: unknown[];
}

export interface SiteCheckDefinition {
  /** the key of its issue in a crawl's issues, listed in docs/checks.md, "Site checks" */
  id: string;
  category: 'site';
  importance: Importance;
  /** Shown when it finds nothing: "No internal link is broken". */
  title: string;
  /** Shown when it finds something: "Internal links lead to errors". */
  failureTitle: string;
  /** Why it matters, one or two sentences. */
  description: string;
  /** How to fix what it finds, one or two sentences. */
  howToFix: string;
  run(site: SiteFacts): SiteCheckOutcome;
}

/** Items kept per site check; `count` keeps the total. */
export const MAX_SITE_ITEMS = 100;
/** Pages named per item (the pages linking to a broken target, ...); the item keeps their count. */
export const MAX_PAGES_PER_ITEM = 20;

export function defineSiteCheck(definition: Omit<SiteCheckDefinition, 'category'>): SiteCheckDefinition {
  return { ...definition, category: 'site' };
}
