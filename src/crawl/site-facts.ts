// The site as its checks see it (checks/site/site-check.ts), built from the rows a crawl stored.
import type { PageCrawlFacts } from '../analysis/types.ts';
import type { CrawledPage, SiteFacts } from '../checks/site/site-check.ts';
import type { SitePageRow } from '../repositories/crawl.repository.ts';

export interface Site {
  facts: SiteFacts;
  /** the row id of each page in facts.pages, by index */
  rowIds: number[];
  /** internal pages linking to each page, by index (a page's links to itself not counted) */
  inlinks: number[];
}

export function buildSite(startUrl: string, rows: readonly SitePageRow[], blockedByRobots: (url: string) => boolean): Site {
  const indexOf = new Map<string, number>(rows.map((row, index) => [row.url, index]));
  const inlinks = new Array<number>(rows.length).fill(0);
  const pages = rows.map((row, index): CrawledPage => {
    const facts = row.facts === null ? null : (JSON.parse(row.facts) as PageCrawlFacts);
    const linksOut = indexesOf(facts?.links ?? [], indexOf);
    for (const target of linksOut) if (target !== index) inlinks[target]++;
    const chain = followChain(rows, indexOf, index);
    return {
      url: row.url,
      statusCode: row.status_code,
      error: row.error,
      fetched: row.state === 'done',
      redirectTarget: row.redirect_target === null ? null : chain.end,
      redirectHops: chain.hops,
      redirectLoop: chain.loop,
      finalStatusCode: chain.finalStatusCode,
      depth: row.depth,
      inSitemap: row.in_sitemap === 1,
      html: facts !== null,
      noindex: facts?.noindex ?? false,
      canonical: facts?.canonical ?? null,
      title: facts?.title ?? null,
      description: facts?.description ?? null,
      textHash: facts?.textHash ?? null,
      hreflang: facts?.hreflang ?? [],
      linksOut,
      nofollowLinksOut: indexesOf(facts?.nofollow ?? [], indexOf),
    };
  });
  return { facts: { startUrl, pages, blockedByRobots }, rowIds: rows.map((row) => row.id), inlinks };
}

/** Redirects followed at most this many times, as the fetcher does for a report's page. */
const MAX_HOPS = 10;

/**
 * Where a URL's redirects end, through the answers the crawl stored for each URL on the way (each was
 * fetched once, its redirect not followed): the last URL, how many redirects, whether they loop, and the
 * last answer's status (null when it was not fetched, or is off the host).
 */
function followChain(rows: readonly SitePageRow[], indexOf: ReadonlyMap<string, number>, start: number) {
  const seen = new Set<number>([start]);
  let current = rows[start];
  let hops = 0;
  for (;;) {
    const target = current.redirect_target;
    if (target === null) return { end: current.url, hops, loop: false, finalStatusCode: current.state === 'done' ? current.status_code : null };
    hops++;
    const next = indexOf.get(target);
    if (next === undefined || hops > MAX_HOPS) return { end: target, hops, loop: false, finalStatusCode: null };
    if (seen.has(next)) return { end: target, hops, loop: true, finalStatusCode: null };
    seen.add(next);
    current = rows[next];
  }
}

/** Links to URLs the crawl does not know (robots-disallowed) are left out, as the frontier left them. */
function indexesOf(urls: readonly string[], indexOf: ReadonlyMap<string, number>): number[] {
  const indexes: number[] = [];
  for (const url of urls) {
    const index = indexOf.get(url);
    if (index !== undefined) indexes.push(index);
  }
  return indexes;
}
