// The pages of a crawl as its pages list (and its CSV export) shows them: the URLs it visited, or
// those it found and never fetched, of its own host(s) or, later, of other hosts.
import { sql } from 'kysely';
import type { CrawlPageRow, UnvisitedReason } from '../db/tables/crawl.table.ts';
import type { DbExecutor } from './executor.ts';

type PageSortBy = 'url' | 'depth' | 'score' | 'inlinks';

/** visited: fetched (any answer, or none); unvisited: found, never fetched (docs/crawls.md, "Bounds"). */
type PageVisitState = 'visited' | 'unvisited';
/** internal: the crawled host(s); external: links to other hosts. */
type PageScope = 'internal' | 'external';

export interface PageListOptions {
  state?: PageVisitState;
  scope?: PageScope;
  status?: '2xx' | '3xx' | '4xx' | '5xx' | 'failed';
  result?: 'good' | 'decent' | 'bad';
  sortBy: PageSortBy;
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

type PageFilters = Pick<PageListOptions, 'state' | 'scope' | 'status' | 'result'>;

/** The URLs of a crawl the list shows, filtered. */
function listedPages(db: DbExecutor, crawlId: number, options: PageFilters) {
  let query = db.selectFrom('crawl_pages').where('crawl_id', '=', crawlId);
  // No URL of another host is stored yet: the external list is empty until the crawl checks them.
  if (options.scope === 'external') query = query.where(sql<boolean>`1 = 0`);
  // Unvisited: waiting (reason null while the crawl runs) or left by a bound. Neither the URLs
  // being fetched nor the sitemap URLs robots.txt disallows ('blocked': not found) are among them.
  query = query.where('state', '=', options.state === 'unvisited' ? 'pending' : 'done');
  if (options.result !== undefined) query = query.where('result', '=', options.result);
  if (options.status === 'failed') query = query.where('status_code', 'is', null);
  else if (options.status !== undefined) {
    const low = Number(options.status[0]) * 100;
    query = query.where('status_code', '>=', low).where('status_code', '<', low + 100);
  }
  return query;
}

export async function listPages(db: DbExecutor, crawlId: number, options: PageListOptions): Promise<CrawlPageRow[]> {
  // Pages without a score or depth sort last either way, as the reports list does for scores.
  const nullsLast = options.sortBy === 'score' || options.sortBy === 'depth';
  let query = listedPages(db, crawlId, options).selectAll();
  if (nullsLast) query = query.orderBy(sql`${sql.ref(options.sortBy)} is null`);
  return query.orderBy(options.sortBy, options.sort).orderBy('id', options.sort).limit(options.limit).offset(options.offset).execute();
}

export async function countPages(db: DbExecutor, crawlId: number, options: PageFilters): Promise<number> {
  const { count } = await listedPages(db, crawlId, options).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

/** Which bounds left URLs of a crawl unvisited (their reasons), and whether a page's links were dropped. */
export interface BoundsHit {
  reasons: UnvisitedReason[];
  linksDropped: boolean;
}

/**
 * The bounds a crawl met, for the sentence that says so: one probe per reason, each ending at the
 * first row found (an index on (crawl_id, reason) keeps a probe that finds none short as well).
 */
export async function boundsHit(db: DbExecutor, crawlId: number): Promise<BoundsHit> {
  const reasons: UnvisitedReason[] = [];
  for (const reason of BOUND_REASONS) {
    const row = await db
      .selectFrom('crawl_pages')
      .select('id')
      .where('crawl_id', '=', crawlId)
      .where('state', '=', 'pending')
      .where('reason', '=', reason)
      .limit(1)
      .executeTakeFirst();
    if (row !== undefined) reasons.push(reason);
  }
  const dropped = await db
    .selectFrom('crawl_pages')
    .select('id')
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'done')
    .where('links_dropped', '>', 0)
    .limit(1)
    .executeTakeFirst();
  return { reasons, linksDropped: dropped !== undefined };
}

/** The reasons that are bounds (limit_reached); excluded and robots are the site's or the caller's choice. */
const BOUND_REASONS: readonly UnvisitedReason[] = ['max_pages', 'max_depth', 'limit'];
