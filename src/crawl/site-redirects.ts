// Where a URL's redirects end, read from the answers the crawl stored for each URL on the way (each
// URL was fetched once, its redirect recorded and not followed), for a batch of URLs at a time.
import type { CrawlPageRow } from '../db/tables/crawl.table.ts';
import { chunksOf, yieldToEventLoop, type StoredSite } from './site-scan.ts';

/** Redirects followed at most this many times, as the fetcher does for a report's page. */
const MAX_HOPS = 10;

export type StoredAnswer = Pick<CrawlPageRow, 'url' | 'state' | 'status_code' | 'redirect_target'>;
export type StoredPage = StoredAnswer & Pick<CrawlPageRow, 'id' | 'html' | 'noindex' | 'hreflang'>;

export interface RedirectChain {
  /** the last URL (on this host or not) */
  end: string;
  hops: number;
  /** the redirects loop; `end` is the URL the loop came back to */
  loop: boolean;
  /** the last answer's status; null when it was not fetched, is off the host, or the chain loops or runs too long */
  finalStatusCode: number | null;
}

/** The crawl's rows of these URLs (those it stored), by URL. */
export async function pagesByUrl(site: StoredSite, urls: Iterable<string>): Promise<Map<string, StoredPage>> {
  const found = new Map<string, StoredPage>();
  for (const chunk of chunksOf([...new Set(urls)])) {
    await yieldToEventLoop();
    const rows = await site.db
      .selectFrom('crawl_pages')
      .select(['id', 'url', 'state', 'status_code', 'redirect_target', 'html', 'noindex', 'hreflang'])
      .where('crawl_id', '=', site.crawlId)
      .where('url', 'in', chunk)
      .execute();
    for (const row of rows) found.set(row.url, row);
  }
  return found;
}

/**
 * The chain of each answer, by its URL (one without a redirect ends at itself with its own status,
 * when fetched). A batch of answers costs one lookup of at most their number of URLs per hop.
 */
export async function followRedirects(site: StoredSite, answers: readonly StoredAnswer[]): Promise<Map<string, RedirectChain>> {
  const known = new Map<string, StoredAnswer | null>(answers.map((answer) => [answer.url, answer]));
  const chains = new Map<string, RedirectChain>();
  let walking = answers.map((start) => ({ start: start.url, current: start, hops: 0, seen: new Set([start.url]) }));
  while (walking.length > 0) {
    const missing = walking.flatMap(({ current }) => (current.redirect_target !== null && !known.has(current.redirect_target) ? [current.redirect_target] : []));
    if (missing.length > 0) {
      const rows = await pagesByUrl(site, missing);
      for (const url of missing) known.set(url, rows.get(url) ?? null);
    }
    const next: typeof walking = [];
    for (const walk of walking) {
      const target = walk.current.redirect_target;
      if (target === null) {
        const { current, hops } = walk;
        chains.set(walk.start, { end: current.url, hops, loop: false, finalStatusCode: current.state === 'done' ? current.status_code : null });
        continue;
      }
      walk.hops++;
      const row = known.get(target) ?? null;
      if (row === null || walk.hops > MAX_HOPS) chains.set(walk.start, { end: target, hops: walk.hops, loop: false, finalStatusCode: null });
      else if (walk.seen.has(target)) chains.set(walk.start, { end: target, hops: walk.hops, loop: true, finalStatusCode: null });
      else {
        walk.seen.add(target);
        walk.current = row;
        next.push(walk);
      }
    }
    walking = next;
  }
  return chains;
}

/**
 * Why `page` (named by a canonical or a sitemap, so meant to be indexed) cannot be indexed as it is: a
 * short reason ("404", "redirects to ...", "noindex", "blocked by robots.txt"), or null when it is fine
 * or was never fetched, so nothing is known of it. `chain` is the page's own.
 */
export function notIndexableReason(page: Pick<StoredPage, 'state' | 'noindex'> | undefined, chain: RedirectChain | undefined): string | null {
  if (page?.state === 'blocked') return 'blocked by robots.txt';
  if (!page || page.state !== 'done' || !chain) return null;
  if (chain.loop) return 'redirect loop';
  if (chain.hops > 0) return `redirects to ${chain.end}`;
  if (chain.finalStatusCode === null) return 'unreachable';
  if (chain.finalStatusCode !== 200) return String(chain.finalStatusCode);
  if (page.noindex === 1) return 'noindex';
  return null;
}
