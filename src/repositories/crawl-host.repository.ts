// Politeness per crawled host, across every crawl and process: whose turn it is (crawl_hosts'
// next_fetch_at: Crawl-delay, Retry-After) and how many requests are in flight on it (pages being
// fetched, and crawls whose start requests are under way, one each). A page's claim and each start
// request take these in the same way, so PAGEGRADE_CRAWL_CONCURRENCY holds from a crawl's first request.
import { sql } from 'kysely';
import type { DbExecutor } from './executor.ts';

/**
 * Takes the host's turn if it has come (next_fetch_at <= now), moving the next one `delayMs` later;
 * on PostgreSQL the row stays locked to the transaction, so turns on one host are taken one at a time.
 * Returns null when taken, else when the turn comes.
 */
export async function takeHostTurn(db: DbExecutor, host: string, now: string, delayMs: number): Promise<string | null> {
  const nextFetchAt = new Date(Date.parse(now) + delayMs).toISOString();
  const turn = await db
    .updateTable('crawl_hosts')
    .set({ next_fetch_at: nextFetchAt })
    .where('host', '=', host)
    .where('next_fetch_at', '<=', now)
    .returning('host')
    .executeTakeFirst();
  if (turn !== undefined) return null;
  const current = await db.selectFrom('crawl_hosts').select('next_fetch_at').where('host', '=', host).executeTakeFirst();
  return current?.next_fetch_at ?? now;
}

export interface HostInFlight {
  /** requests in flight on the host, every crawl's (a crawl starting counts one) */
  onHost: number;
  /** this crawl's pages being fetched */
  ours: number;
  /** of those, the ones with a click depth (they may yet give depth-less URLs one) */
  linked: number;
}

/** What is in flight on `host` now; `crawlId`'s own start lease is not counted (it is the asker's). */
export async function inFlightOnHost(db: DbExecutor, host: string, crawlId: number, now: string): Promise<HostInFlight> {
  const fetching = await db
    .selectFrom('crawl_pages')
    .innerJoin('crawls', 'crawls.id', 'crawl_pages.crawl_id')
    .select([
      sql<number>`count(*)`.as('on_host'),
      sql<number>`count(*) filter (where crawl_pages.crawl_id = ${crawlId})`.as('ours'),
      sql<number>`count(crawl_pages.depth) filter (where crawl_pages.crawl_id = ${crawlId})`.as('linked'),
    ])
    .where('crawls.project', '=', host)
    .where('crawls.state', '=', 'running')
    .where('crawl_pages.state', '=', 'fetching')
    .where('crawl_pages.lease_until', '>', now)
    .executeTakeFirstOrThrow();
  const starting = await db
    .selectFrom('crawls')
    .select(sql<number>`count(*)`.as('count'))
    .where('project', '=', host)
    .where('state', 'in', ['queued', 'running'])
    .where('start_lease_until', '>', now)
    .where('id', '!=', crawlId)
    .executeTakeFirstOrThrow();
  return { onHost: Number(fetching.on_host) + Number(starting.count), ours: Number(fetching.ours), linked: Number(fetching.linked) };
}

/** Holds (or renews) the crawl's start lease: its start requests count as one in flight until `until`. */
export async function holdStartLease(db: DbExecutor, crawlId: number, until: string | null): Promise<void> {
  await db.updateTable('crawls').set({ start_lease_until: until }).where('id', '=', crawlId).execute();
}

/** Makes the host's row the claims take turns on, if no crawl of it has yet. */
export async function addHost(db: DbExecutor, host: string, now: string): Promise<void> {
  await db.insertInto('crawl_hosts').values({ host, next_fetch_at: now }).onConflict((conflict) => conflict.column('host').doNothing()).execute();
}

/** Pushes the host's next turn back to `until` (a Retry-After, a Crawl-delay), never earlier than it already is. */
export async function deferHost(db: DbExecutor, host: string, until: string): Promise<void> {
  await db.updateTable('crawl_hosts').set({ next_fetch_at: until }).where('host', '=', host).where('next_fetch_at', '<', until).execute();
}
