// Politeness per crawled host, across every crawl and process: whose turn it is (crawl_hosts'
// next_fetch_at: Crawl-delay, Retry-After) and how many requests are in flight on it (pages being
// fetched, and crawls whose start requests are under way, one each). A page's claim and each start
// request take these in the same way, so PAGEGRADE_CRAWL_CONCURRENCY holds from a crawl's first request.
//
// A spider crawl's URLs are all on its host (crawls.project); a list crawl's are on any of its listed
// hosts (docs/crawls.md, "List mode"). A frontier row has no host column: its host is read from its
// URL, stored normalised as `scheme://host/...`, so "on the host" is a prefix of it.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { DbExecutor } from './executor.ts';

/** Whether a crawl_pages row's URL is on `host` (URL.host: a port when not the default). */
function urlOnHost(host: string): Expression<SqlBool> {
  const http = `http://${host}/`;
  const https = `https://${host}/`;
  // substr is exact (no pattern characters to escape) and the same in both dialects.
  return sql<SqlBool>`(substr(crawl_pages.url, 1, ${sql.lit(http.length)}) = ${http} or substr(crawl_pages.url, 1, ${sql.lit(https.length)}) = ${https})`;
}

/** Whether a list crawl's listed URLs (crawls.urls, a JSON array of normalised URLs) name `host`. */
function listNamesHost(host: string): Expression<SqlBool> {
  const escaped = host.replace(/[\\%_]/g, (character) => `\\${character}`);
  return sql<SqlBool>`(crawls.urls like ${`%"http://${escaped}/%`} escape '\\' or crawls.urls like ${`%"https://${escaped}/%`} escape '\\')`;
}

/**
 * List crawls in these states, found by their partial index (crawls_list_state_idx): written as a
 * literal, since SQLite matches a partial index's condition only against the query's own text.
 */
const IS_LIST_CRAWL = sql<SqlBool>`crawls.mode = 'list'`;

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
  /** this crawl's pages on the host being fetched */
  ours: number;
  /** of those, the ones with a click depth (they may yet give depth-less URLs one) */
  linked: number;
}

/**
 * What is in flight on `host` now; `crawlId`'s own start lease is not counted (it is the asker's). A
 * list crawl starting counts one on each of its hosts for as long as its start lasts (it asks them one
 * after another, and no other crawl could know which it is asking now).
 */
export async function inFlightOnHost(db: DbExecutor, host: string, crawlId: number, now: string): Promise<HostInFlight> {
  const onHost = urlOnHost(host);
  // The host's own crawls: every URL of a spider crawl is on it, a list crawl's only some.
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
    .where((eb) => eb.or([eb('crawls.mode', '=', 'spider'), onHost]))
    .executeTakeFirstOrThrow();
  const starting = await db
    .selectFrom('crawls')
    .select(sql<number>`count(*)`.as('count'))
    .where('project', '=', host)
    .where('state', 'in', ['queued', 'running'])
    .where('start_lease_until', '>', now)
    .where('id', '!=', crawlId)
    .executeTakeFirstOrThrow();
  const own = { onHost: Number(fetching.on_host) + Number(starting.count), ours: Number(fetching.ours), linked: Number(fetching.linked) };
  if (!(await otherListCrawlsLive(db, host))) return own;
  // List crawls of other projects with listed URLs on the host.
  const listed = await db
    .selectFrom('crawl_pages')
    .innerJoin('crawls', 'crawls.id', 'crawl_pages.crawl_id')
    .select([
      sql<number>`count(*)`.as('on_host'),
      sql<number>`count(*) filter (where crawl_pages.crawl_id = ${crawlId})`.as('ours'),
    ])
    .where(IS_LIST_CRAWL)
    .where('crawls.state', '=', 'running')
    .where('crawls.project', '<>', host)
    .where('crawl_pages.state', '=', 'fetching')
    .where('crawl_pages.lease_until', '>', now)
    .where(onHost)
    .executeTakeFirstOrThrow();
  const listStarting = await db
    .selectFrom('crawls')
    .select(sql<number>`count(*)`.as('count'))
    .where(IS_LIST_CRAWL)
    .where('state', 'in', ['queued', 'running'])
    .where('project', '<>', host)
    .where('start_lease_until', '>', now)
    .where('id', '!=', crawlId)
    .where(listNamesHost(host))
    .executeTakeFirstOrThrow();
  return { onHost: own.onHost + Number(listed.on_host) + Number(listStarting.count), ours: own.ours + Number(listed.ours), linked: own.linked };
}

/**
 * Whether a list crawl of another project is queued or running: one probe of the partial index
 * (crawls_list_state_idx, empty while no list crawl runs), so a spider crawl's claim reads the list
 * crawls' URLs on its host only while there may be some.
 */
async function otherListCrawlsLive(db: DbExecutor, host: string): Promise<boolean> {
  const row = await db.selectFrom('crawls').select('id').where(IS_LIST_CRAWL).where('state', 'in', ['queued', 'running']).where('project', '<>', host).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** A crawl's pages being fetched now, on every host (a list crawl's too). */
export async function fetchingOfCrawl(db: DbExecutor, crawlId: number, now: string): Promise<number> {
  const { count } = await db
    .selectFrom('crawl_pages')
    .select(sql<number>`count(*)`.as('count'))
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'fetching')
    .where('lease_until', '>', now)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Takes the host's row for the rest of the transaction without moving its turn (on PostgreSQL the
 * claims on one host then take turns) and says when its turn is; undefined when it has no row.
 */
export async function lockHostTurn(db: DbExecutor, host: string): Promise<string | undefined> {
  const row = await db
    .updateTable('crawl_hosts')
    .set((eb) => ({ next_fetch_at: eb.ref('next_fetch_at') }))
    .where('host', '=', host)
    .returning('next_fetch_at')
    .executeTakeFirst();
  return row?.next_fetch_at;
}

/** Sets the host's next turn (the caller holds its row and took the turn now). */
export async function moveHostTurn(db: DbExecutor, host: string, nextFetchAt: string): Promise<void> {
  await db.updateTable('crawl_hosts').set({ next_fetch_at: nextFetchAt }).where('host', '=', host).execute();
}

/** Holds (or renews) the crawl's start lease: its start requests count as one in flight until `until`. */
export async function holdStartLease(db: DbExecutor, crawlId: number, until: string | null): Promise<void> {
  await db.updateTable('crawls').set({ start_lease_until: until }).where('id', '=', crawlId).execute();
}

/** Makes the host's row the claims take turns on, if no crawl of it has yet. */
export async function addHost(db: DbExecutor, host: string, now: string): Promise<void> {
  await addHosts(db, [host], now);
}

/** addHost for each of `hosts` (a list crawl's, at most MAX_LIST_HOSTS), in one statement. */
export async function addHosts(db: DbExecutor, hosts: readonly string[], now: string): Promise<void> {
  if (hosts.length === 0) return;
  await db
    .insertInto('crawl_hosts')
    .values(hosts.map((host) => ({ host, next_fetch_at: now })))
    .onConflict((conflict) => conflict.column('host').doNothing())
    .execute();
}

/** Pushes the host's next turn back to `until` (a Retry-After, a Crawl-delay), never earlier than it already is. */
export async function deferHost(db: DbExecutor, host: string, until: string): Promise<void> {
  await db.updateTable('crawl_hosts').set({ next_fetch_at: until }).where('host', '=', host).where('next_fetch_at', '<', until).execute();
}
