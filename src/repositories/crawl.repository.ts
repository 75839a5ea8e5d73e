// Crawl rows: a site audit's settings, state and counters. Plain Kysely functions that return rows;
// the frontier and claims are in crawl-frontier.repository.ts, the pages list in
// crawl-page-list.repository.ts, the findings in crawl-issue.repository.ts.
import type { CrawlRow, CrawlState, CrawlsTable } from '../db/tables/crawl.table.ts';
import type { Insertable, Updateable } from 'kysely';
import type { DbExecutor } from './executor.ts';

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

export async function findCrawl(db: DbExecutor, organizationId: number, id: number): Promise<CrawlRow | undefined> {
  return db.selectFrom('crawls').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** For job handlers, which carry the crawl's id only. */
export async function findCrawlById(db: DbExecutor, id: number): Promise<CrawlRow | undefined> {
  return db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirst();
}

function filtered(db: DbExecutor, organizationId: number, options: Pick<CrawlListOptions, 'project' | 'state'>) {
  let query = db.selectFrom('crawls').where('organization_id', '=', organizationId);
  if (options.project !== undefined) query = query.where('project', '=', options.project);
  if (options.state !== undefined) query = query.where('state', '=', options.state);
  return query;
}

export async function listCrawls(db: DbExecutor, organizationId: number, options: CrawlListOptions): Promise<CrawlRow[]> {
  return filtered(db, organizationId, options)
    .selectAll()
    .orderBy(options.sortBy, options.sort)
    .orderBy('id', options.sort)
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}

export async function countCrawls(db: DbExecutor, organizationId: number, options: Pick<CrawlListOptions, 'project' | 'state'>): Promise<number> {
  const { count } = await filtered(db, organizationId, options).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

export async function deleteCrawl(db: DbExecutor, organizationId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('crawls').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
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

/** What a claim and a page's store read of its crawl's row (its bounds' counters). */
export type CrawlCounters = Pick<CrawlRow, 'state' | 'pages_crawled' | 'pages_found' | 'pages_unstored' | 'requests'>;

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
    .returning(['state', 'pages_crawled', 'pages_found', 'pages_unstored', 'requests'])
    .executeTakeFirst();
}

export interface CrawlCounterDelta {
  found?: number;
  crawled?: number;
  failed?: number;
  /** rows moved to done */
  visited?: number;
  /** found while the frontier was full (counted in `found` too) */
  unstored?: number;
  /** HTTP requests sent to the host */
  requests?: number;
  /** a bound cut something off */
  limitReached?: boolean;
}

/** Adds to a crawl's counters; `limitReached` sets its flag (never clears it). */
export async function countOnCrawl(db: DbExecutor, id: number, delta: CrawlCounterDelta): Promise<void> {
  const { found = 0, crawled = 0, failed = 0, visited = 0, unstored = 0, requests = 0, limitReached = false } = delta;
  if (found === 0 && crawled === 0 && failed === 0 && visited === 0 && unstored === 0 && requests === 0 && !limitReached) return;
  await db
    .updateTable('crawls')
    .set((eb) => ({
      pages_found: eb('pages_found', '+', found),
      pages_crawled: eb('pages_crawled', '+', crawled),
      pages_failed: eb('pages_failed', '+', failed),
      pages_visited: eb('pages_visited', '+', visited),
      pages_unstored: eb('pages_unstored', '+', unstored),
      requests: eb('requests', '+', requests),
      ...(limitReached ? { limit_reached: 1 } : {}),
    }))
    .where('id', '=', id)
    .execute();
}

/** The most HTTP requests a crawl may send to its host (docs/crawls.md, "Bounds"). */
export const maxRequestsOf = (crawl: Pick<CrawlRow, 'max_pages'>): number => 2 * crawl.max_pages + 50;

/** The most URLs a crawl stores in its frontier, blocked sitemap URLs included. */
export const maxFrontierOf = (crawl: Pick<CrawlRow, 'max_pages'>): number => 20 * crawl.max_pages;

/** The account's crawls in state queued or running: what PAGEGRADE_CRAWLS_PER_ACCOUNT bounds. */
export async function countActiveCrawls(db: DbExecutor, organizationId: number): Promise<number> {
  const { count } = await db
    .selectFrom('crawls')
    .where('organization_id', '=', organizationId)
    .where('state', 'in', ['queued', 'running'])
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Takes the turn to finish a running crawl until `until`, if no other job holds it now (or its holder's
 * turn ran out: its process died); returns whether this job has it.
 */
export async function takeFinishTurn(db: DbExecutor, id: number, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('crawls')
    .set({ finishing_until: until })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where((eb) => eb.or([eb('finishing_until', 'is', null), eb('finishing_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
