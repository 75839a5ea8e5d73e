// Crawls, their frontier and their findings: plain Kysely functions that return rows. The claim of
// a page is the one place politeness is decided, so it holds across every process crawling a site.
import { sql } from 'kysely';
import type { CrawlPageRow, CrawlRow, CrawlState, CrawlsTable } from '../db/tables/crawl.table.ts';
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database } from '../db/database.ts';
import { inOneTransaction, statementChunks, type DbExecutor } from './executor.ts';

export type CrawlInsert = Insertable<CrawlsTable>;
export type CrawlPatch = Updateable<CrawlsTable>;

export interface CrawlListOptions {
  project?: string;
  state?: CrawlState;
  sortBy: 'id' | 'created_at';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export async function insertCrawl(db: DbExecutor, crawl: CrawlInsert): Promise<number> {
  const { id } = await db.insertInto('crawls').values(crawl).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function findCrawl(db: DbExecutor, userId: number, id: number): Promise<CrawlRow | undefined> {
  return db.selectFrom('crawls').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** For job handlers, which carry the crawl's id only. */
export async function findCrawlById(db: DbExecutor, id: number): Promise<CrawlRow | undefined> {
  return db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirst();
}

function filtered(db: DbExecutor, userId: number, options: Pick<CrawlListOptions, 'project' | 'state'>) {
  let query = db.selectFrom('crawls').where('user_id', '=', userId);
  if (options.project !== undefined) query = query.where('project', '=', options.project);
  if (options.state !== undefined) query = query.where('state', '=', options.state);
  return query;
}

export async function listCrawls(db: DbExecutor, userId: number, options: CrawlListOptions): Promise<CrawlRow[]> {
  return filtered(db, userId, options)
    .selectAll()
    .orderBy(options.sortBy, options.sort)
    .orderBy('id', options.sort)
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}

export async function countCrawls(db: DbExecutor, userId: number, options: Pick<CrawlListOptions, 'project' | 'state'>): Promise<number> {
  const { count } = await filtered(db, userId, options).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

export async function deleteCrawl(db: DbExecutor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('crawls').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Moves the crawl from one of `from` to `to` with `patch`, only if it is in one of them now. */
export async function moveCrawlState(db: DbExecutor, id: number, from: readonly CrawlState[], to: CrawlState, patch: CrawlPatch = {}): Promise<boolean> {
  const result = await db
    .updateTable('crawls')
    .set({ ...patch, state: to })
    .where('id', '=', id)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a claim reads of its crawl's row. */
type CrawlCounters = Pick<CrawlRow, 'state' | 'pages_crawled'>;

/**
 * Takes the crawl's row for the rest of the transaction (PostgreSQL). Every transaction that changes a
 * crawl's pages takes it first, the claim included, so two never wait on each other in a cycle. Adds
 * `crawled` to its pages crawled on the way; returns what a claim checks (undefined: the crawl is gone).
 */
export async function lockCrawl(db: DbExecutor, id: number, crawled = 0): Promise<CrawlCounters | undefined> {
  return db
    .updateTable('crawls')
    .set((eb) => ({ pages_crawled: eb('pages_crawled', '+', crawled) }))
    .where('id', '=', id)
    .returning(['state', 'pages_crawled'])
    .executeTakeFirst();
}

/** Adds to a crawl's counters (pages found, crawled, failed). */
export async function countOnCrawl(
  db: DbExecutor,
  id: number,
  delta: { found?: number; crawled?: number; failed?: number },
): Promise<void> {
  const { found = 0, crawled = 0, failed = 0 } = delta;
  if (found === 0 && crawled === 0 && failed === 0) return;
  await db
    .updateTable('crawls')
    .set((eb) => ({
      pages_found: eb('pages_found', '+', found),
      pages_crawled: eb('pages_crawled', '+', crawled),
      pages_failed: eb('pages_failed', '+', failed),
    }))
    .where('id', '=', id)
    .execute();
}

export interface FrontierEntry {
  url: string;
  /** null: known only from a sitemap (or from the links of a page known only from one) */
  depth: number | null;
  inSitemap: boolean;
  /** fetched even without a click depth: a sitemap URL, or where one redirects */
  seeded?: boolean;
  /** a sitemap URL robots.txt disallows: kept for the site checks, never fetched nor counted as found */
  blocked?: boolean;
}

/**
 * Adds URLs to the frontier; a URL already there keeps its row, taking the smaller depth and the
 * sitemap mark. Returns how many URLs were new.
 */
export async function addToFrontier(db: DbExecutor, crawlId: number, entries: readonly FrontierEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  return inOneTransaction(db, async (trx) => {
    let added = 0;
    const rows = entries.map((entry) => ({
      crawl_id: crawlId,
      url: entry.url,
      state: entry.blocked ? ('blocked' as const) : ('pending' as const),
      depth: entry.depth,
      in_sitemap: entry.inSitemap ? 1 : 0,
      seeded: entry.seeded ? 1 : 0,
    }));
    for (const chunk of statementChunks(rows)) {
      const inserted = await trx
        .insertInto('crawl_pages')
        .values(chunk)
        .onConflict((conflict) => conflict.columns(['crawl_id', 'url']).doNothing())
        .returning('id')
        .execute();
      added += inserted.length;
    }
    if (added < entries.length) await mergeKnown(trx, crawlId, entries);
    return added;
  });
}

/** A URL found again: nearer the start page than first seen (it is claimed sooner), or in a sitemap. */
async function mergeKnown(db: DbExecutor, crawlId: number, entries: readonly FrontierEntry[]): Promise<void> {
  const byDepth = new Map<number, string[]>();
  for (const entry of entries) {
    if (entry.depth === null) continue;
    byDepth.set(entry.depth, [...(byDepth.get(entry.depth) ?? []), entry.url]);
  }
  for (const [depth, urls] of byDepth) {
    await db
      .updateTable('crawl_pages')
      .set({ depth })
      .where('crawl_id', '=', crawlId)
      .where('url', 'in', urls)
      .where((eb) => eb.or([eb('depth', 'is', null), eb('depth', '>', depth)]))
      .execute();
  }
  const sitemapUrls = entries.filter((entry) => entry.inSitemap).map((entry) => entry.url);
  if (sitemapUrls.length > 0) {
    await db.updateTable('crawl_pages').set({ in_sitemap: 1 }).where('crawl_id', '=', crawlId).where('url', 'in', sitemapUrls).execute();
  }
  const seededUrls = entries.filter((entry) => entry.seeded).map((entry) => entry.url);
  if (seededUrls.length > 0) {
    await db.updateTable('crawl_pages').set({ seeded: 1 }).where('crawl_id', '=', crawlId).where('url', 'in', seededUrls).execute();
  }
}

export interface ClaimedPage {
  id: number;
  url: string;
  depth: number | null;
  /** the claim's number: only the claim holding it may record the page (a fencing token) */
  attempts: number;
  /** fetched without a click depth (see FrontierEntry.seeded) */
  seeded: number;
}

export type Claim =
  | { claimed: ClaimedPage }
  /** the host's turn is not yet (Crawl-delay, Retry-After) or all its slots are taken: try again at `retryAt` */
  | { busy: true; retryAt: string }
  /** nothing claimable now; `inFlight` pages are still being fetched (they may add more) */
  | { idle: true; inFlight: number }
  /** the crawl is no longer running (it ended, was cancelled or deleted) */
  | { stopped: true };

export interface ClaimLimits {
  now: string;
  leaseUntil: string;
  concurrency: number;
}

export type ClaimingCrawl = Pick<CrawlRow, 'id' | 'project' | 'crawl_delay_ms' | 'max_depth' | 'max_pages'>;

/**
 * Takes the next page to fetch, breadth first, if the host may be asked now: its Crawl-delay or
 * Retry-After has passed, fewer than `concurrency` pages are being fetched from it (by any of its
 * running crawls), and this crawl's pages analysed plus being fetched stay under max_pages. In a
 * transaction that took the crawl's row (`counters`), the host's row is updated next, so on PostgreSQL
 * claims on one host from every process take turns; SQLite runs one writer at a time. Throws
 * NothingClaimed after taking the turn without a page: the caller undoes the turn.
 */
async function claimPage(trx: DbExecutor, crawl: ClaimingCrawl, limits: ClaimLimits, counters: CrawlCounters | undefined): Promise<Claim> {
  if (counters?.state !== 'running') return { stopped: true };
  const host = crawl.project;
  const nextFetchAt = new Date(Date.parse(limits.now) + crawl.crawl_delay_ms).toISOString();
  const turn = await trx
    .updateTable('crawl_hosts')
    .set({ next_fetch_at: nextFetchAt })
    .where('host', '=', host)
    .where('next_fetch_at', '<=', limits.now)
    .returning('host')
    .executeTakeFirst();
  if (turn === undefined) {
    const current = await trx.selectFrom('crawl_hosts').select('next_fetch_at').where('host', '=', host).executeTakeFirst();
    return { busy: true, retryAt: current?.next_fetch_at ?? limits.now };
  }
  // Pages being fetched from the host by its running crawls, and how many of them are this crawl's
  // (with a click depth: see nextClaimable), in one read.
  const fetching = await trx
    .selectFrom('crawl_pages')
    .innerJoin('crawls', 'crawls.id', 'crawl_pages.crawl_id')
    .select([
      sql<number>`count(*)`.as('on_host'),
      sql<number>`count(*) filter (where crawl_pages.crawl_id = ${crawl.id})`.as('ours'),
      sql<number>`count(crawl_pages.depth) filter (where crawl_pages.crawl_id = ${crawl.id})`.as('linked'),
    ])
    .where('crawls.project', '=', host)
    .where('crawls.state', '=', 'running')
    .where('crawl_pages.state', '=', 'fetching')
    .where('crawl_pages.lease_until', '>', limits.now)
    .executeTakeFirstOrThrow();
  const inFlight = Number(fetching.ours);
  if (Number(fetching.on_host) >= limits.concurrency) return nothingClaimed({ busy: true, retryAt: limits.now });
  if (counters.pages_crawled + inFlight >= crawl.max_pages) return nothingClaimed({ idle: true, inFlight });
  const next = await nextClaimable(trx, crawl, limits.now, Number(fetching.linked) > 0);
  if (next === undefined) return nothingClaimed({ idle: true, inFlight });
  await trx
    .updateTable('crawl_pages')
    .set({ state: 'fetching', lease_until: limits.leaseUntil, attempts: next.attempts + 1 })
    .where('id', '=', next.id)
    .execute();
  return { claimed: { ...next, attempts: next.attempts + 1 } };
}

/** Ends the claim without keeping its turn: nothing was taken. */
function nothingClaimed(claim: Claim): never {
  throw new NothingClaimed(claim);
}

class NothingClaimed extends Error {
  constructor(readonly claim: Claim) {
    super('nothing claimed');
  }
}

/** A claim in a transaction of its own, undone when it takes nothing. */
export async function claimNextPage(db: Kysely<Database>, crawl: ClaimingCrawl, limits: ClaimLimits): Promise<Claim> {
  try {
    return await db.transaction().execute(async (trx) => claimPage(trx, crawl, limits, await lockCrawl(trx, crawl.id)));
  } catch (error) {
    if (error instanceof NothingClaimed) return error.claim;
    throw error;
  }
}

/**
 * A claim at the end of the caller's transaction, which took the crawl's row first (`counters`, what
 * lockCrawl returned): storing a page and taking the next in one commit. A savepoint undoes the
 * claim's part, not the caller's, when it takes nothing.
 */
export async function claimNextPageWithin(trx: Transaction<Database>, crawl: ClaimingCrawl, limits: ClaimLimits, counters: CrawlCounters | undefined): Promise<Claim> {
  await sql`savepoint claim`.execute(trx);
  try {
    const claim = await claimPage(trx, crawl, limits, counters);
    await sql`release savepoint claim`.execute(trx);
    return claim;
  } catch (error) {
    if (!(error instanceof NothingClaimed)) throw error;
    await sql`rollback to savepoint claim`.execute(trx);
    return error.claim;
  }
}

/**
 * A page whose claim ran out (its process died) first, then the waiting ones nearest the start page,
 * then the URLs known only from a sitemap (and where they redirect), once no linked page is being
 * fetched (it may yet link to them, giving them their click depth): links show which pages the site
 * itself leads to. A URL known only from the links of such a page has no click depth and is not fetched.
 */
async function nextClaimable(db: DbExecutor, crawl: Pick<CrawlRow, 'id' | 'max_depth'>, now: string, linkedInFlight: boolean) {
  const columns = ['id', 'url', 'depth', 'attempts', 'seeded'] as const;
  const lapsed = await db
    .selectFrom('crawl_pages')
    .select(columns)
    .where('crawl_id', '=', crawl.id)
    .where('state', '=', 'fetching')
    .where('lease_until', '<=', now)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (lapsed !== undefined) return lapsed;
  const linked = await db
    .selectFrom('crawl_pages')
    .select(columns)
    .where('crawl_id', '=', crawl.id)
    .where('state', '=', 'pending')
    .where('depth', '<=', crawl.max_depth)
    .orderBy('depth')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (linked !== undefined || linkedInFlight) return linked;
  return db
    .selectFrom('crawl_pages')
    .select(columns)
    .where('crawl_id', '=', crawl.id)
    .where('state', '=', 'pending')
    .where('depth', 'is', null)
    .where('seeded', '=', 1)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export type CrawlPageOutcome = Pick<
  CrawlPageRow,
  'status_code' | 'redirect_target' | 'content_type' | 'error' | 'title' | 'report_id' | 'score' | 'result' | 'facts'
>;

/** Records what fetching a page found, if `claim` still holds it; returns whether it did. */
export async function recordPage(db: DbExecutor, claim: Pick<ClaimedPage, 'id' | 'attempts'>, outcome: Partial<CrawlPageOutcome>): Promise<boolean> {
  const result = await db
    .updateTable('crawl_pages')
    .set({ ...outcome, state: 'done', lease_until: null })
    .where('id', '=', claim.id)
    .where('state', '=', 'fetching')
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives a claimed page back to the frontier (the host asked us to wait), if `claim` still holds it. */
export async function releasePage(db: DbExecutor, claim: Pick<ClaimedPage, 'id' | 'attempts'>): Promise<void> {
  await db
    .updateTable('crawl_pages')
    .set({ state: 'pending', lease_until: null })
    .where('id', '=', claim.id)
    .where('state', '=', 'fetching')
    .where('attempts', '=', claim.attempts)
    .execute();
}

/** Makes the host's row the claims take turns on, if no crawl of it has yet. */
export async function addHost(db: DbExecutor, host: string, now: string): Promise<void> {
  await db.insertInto('crawl_hosts').values({ host, next_fetch_at: now }).onConflict((conflict) => conflict.column('host').doNothing()).execute();
}

/** Pushes the host's next turn back to `until` (a Retry-After), never earlier than it already is. */
export async function deferHost(db: DbExecutor, host: string, until: string): Promise<void> {
  await db.updateTable('crawl_hosts').set({ next_fetch_at: until }).where('host', '=', host).where('next_fetch_at', '<', until).execute();
}

export type SitePageRow = Pick<
  CrawlPageRow,
  'id' | 'url' | 'state' | 'depth' | 'in_sitemap' | 'status_code' | 'redirect_target' | 'error' | 'score' | 'facts'
>;

/** Every URL of the crawl with what site checks read, in id order, a batch at a time. */
export async function* sitePages(db: DbExecutor, crawlId: number, batch = 1000): AsyncGenerator<SitePageRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('crawl_pages')
      .select(['id', 'url', 'state', 'depth', 'in_sitemap', 'status_code', 'redirect_target', 'error', 'score', 'facts'])
      .where('crawl_id', '=', crawlId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(batch)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1].id;
  }
}

export interface IssueRow {
  check_id: string;
  importance: string;
  count: number;
  items: string;
}

/** Stores a crawl's findings (replacing any from an earlier attempt) and each page's inlinks. */
export async function storeFindings(db: DbExecutor, crawlId: number, issues: readonly IssueRow[], inlinks: ReadonlyMap<number, number>): Promise<void> {
  await db.deleteFrom('crawl_issues').where('crawl_id', '=', crawlId).execute();
  for (const chunk of statementChunks(issues.map((issue) => ({ ...issue, crawl_id: crawlId })))) {
    await db.insertInto('crawl_issues').values(chunk).execute();
  }
  for (const [pageId, count] of inlinks) {
    await db.updateTable('crawl_pages').set({ inlinks: count }).where('id', '=', pageId).execute();
  }
}

export async function listIssues(db: DbExecutor, crawlId: number): Promise<IssueRow[]> {
  return db.selectFrom('crawl_issues').select(['check_id', 'importance', 'count', 'items']).where('crawl_id', '=', crawlId).execute();
}

type PageSortBy = 'url' | 'depth' | 'score' | 'inlinks';

export interface PageListOptions {
  status?: '2xx' | '3xx' | '4xx' | '5xx' | 'failed';
  result?: 'good' | 'decent' | 'bad';
  sortBy: PageSortBy;
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** The URLs a crawl reached (fetched, or failed), as the pages list shows them. */
function reachedPages(db: DbExecutor, crawlId: number, options: Pick<PageListOptions, 'status' | 'result'>) {
  let query = db.selectFrom('crawl_pages').where('crawl_id', '=', crawlId).where('state', '=', 'done');
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
  let query = reachedPages(db, crawlId, options).selectAll();
  if (nullsLast) query = query.orderBy(sql`${sql.ref(options.sortBy)} is null`);
  return query.orderBy(options.sortBy, options.sort).orderBy('id', options.sort).limit(options.limit).offset(options.offset).execute();
}

export async function countPages(db: DbExecutor, crawlId: number, options: Pick<PageListOptions, 'status' | 'result'>): Promise<number> {
  const { count } = await reachedPages(db, crawlId, options).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

/** The account's newest report for this exact URL, when it has one. */
export async function latestReportIdFor(db: DbExecutor, userId: number, url: string): Promise<number | undefined> {
  const row = await db.selectFrom('reports').select('id').where('user_id', '=', userId).where('url', '=', url).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.id;
}
