// The pages of a crawl as its pages list (and its CSV export) shows them: the URLs it visited, or
// those it found and never fetched, of its own host(s) (crawl_pages) or of other hosts, the external
// links it checked or left unchecked (crawl_externals).
import { sql } from 'kysely';
import type { CrawlExternalRow, CrawlPageRow, UnvisitedReason } from '../db/tables/crawl.table.ts';
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

/** An external URL as the list shows it: its row and the crawled pages linking to it. */
export type ExternalListRow = CrawlExternalRow & { inlinks: number };

/**
 * The external URLs of a crawl the list shows (scope=external), filtered as its pages are. Visited:
 * checked; unvisited: not checked, past the cap (reason 'limit') or, while the crawl runs, still to be.
 * An external URL has no verdict, so a `result` filter leaves none.
 */
function listedExternals(db: DbExecutor, crawlId: number, options: PageFilters) {
  let query = db.selectFrom('crawl_externals').where('crawl_id', '=', crawlId);
  if (options.state === 'unvisited') query = query.where((eb) => eb.or([eb('state', '<>', 'done'), eb('reason', 'is not', null)]));
  else query = query.where('state', '=', 'done').where('reason', 'is', null);
  if (options.result !== undefined) query = query.where(sql<boolean>`1 = 0`);
  if (options.status === 'failed') query = query.where('status_code', 'is', null);
  else if (options.status !== undefined) {
    const low = Number(options.status[0]) * 100;
    query = query.where('status_code', '>=', low).where('status_code', '<', low + 100);
  }
  return query;
}

/** The distinct crawled pages linking to the external URL (its links' primary key, counted). */
const externalInlinks = sql<number>`(select count(*) from crawl_external_links where crawl_external_links.crawl_id = crawl_externals.crawl_id and crawl_external_links.to_id = crawl_externals.id)`;

/**
 * One page of the crawl's external URLs. Sorted by url or inlinks (counted for every URL listed when
 * sorted by them); depth and score are null for every external URL, so sorted by either they come in
 * the order they were found, as ties of any sort do.
 */
export async function listExternals(db: DbExecutor, crawlId: number, options: PageListOptions): Promise<ExternalListRow[]> {
  let query = listedExternals(db, crawlId, options).selectAll().select(externalInlinks.as('inlinks'));
  if (options.sortBy === 'url') query = query.orderBy('url', options.sort);
  else if (options.sortBy === 'inlinks') query = query.orderBy('inlinks', options.sort);
  const rows = await query.orderBy('id', options.sort).limit(options.limit).offset(options.offset).execute();
  return rows.map((row) => ({ ...row, inlinks: Number(row.inlinks) }));
}

export async function countExternals(db: DbExecutor, crawlId: number, options: PageFilters): Promise<number> {
  const { count } = await listedExternals(db, crawlId, options).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
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
  // External URLs past the cap are left by a bound too ('limit'): probed only when no page says so.
  if (!reasons.includes('limit')) {
    const unchecked = await db.selectFrom('crawl_externals').select('id').where('crawl_id', '=', crawlId).where('reason', '=', 'limit').limit(1).executeTakeFirst();
    if (unchecked !== undefined) reasons.push('limit');
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
