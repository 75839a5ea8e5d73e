// The claim of a crawl's next page: the one place politeness and the request budget are decided, so
// they hold across every process crawling a site (docs/crawls.md, "Bounds").
import { sql } from 'kysely';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DbExecutor } from './executor.ts';
import { countOnCrawl, lockCrawl, maxRequestsOf, type CrawlCounters } from './crawl.repository.ts';
import { addHost, fetchingOfCrawl, inFlightOnHost, lockHostTurn, moveHostTurn, takeHostTurn } from './crawl-host.repository.ts';

export interface ClaimedPage {
  id: number;
  url: string;
  depth: number | null;
  /** the claim's number: only the claim holding it may record the page (a fencing token) */
  attempts: number;
  /** redirects in a row that led to this URL */
  redirects: number;
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

export type ClaimingCrawl = Pick<CrawlRow, 'id' | 'project' | 'crawl_delay_ms' | 'max_depth' | 'max_pages'> & {
  /** 'list': the URLs may be on any listed host, each claimed under its own host's turn and slots */
  mode?: CrawlRow['mode'];
  /** a list crawl's Crawl-delay per host (read when it started); a host not in it: crawl_delay_ms */
  hostDelays?: ReadonlyMap<string, number>;
};

/**
 * A list crawl's claim looks at this many waiting URLs (nearest first) and takes the first one whose
 * host may be asked now: a bounded read, whatever the frontier's size. Its listed URLs are stored
 * host after host in turn, so the first ones name many of its hosts.
 */
const LIST_WINDOW = 64;

/** What a claim reads of a frontier row. */
const CLAIM_COLUMNS = ['id', 'url', 'depth', 'attempts', 'redirects'] as const;

/**
 * Takes the next page to fetch, breadth first, if the host may be asked now: its Crawl-delay or
 * Retry-After has passed, fewer than `concurrency` requests are in flight on it (any crawl's pages and
 * starts), this crawl's pages analysed plus being fetched stay under max_pages, and its requests stay
 * within 2 × max_pages + 50. The claim is the request: it is counted here, so the budget holds at every
 * moment however many processes fetch. In a transaction that took the crawl's row (`counters`), the
 * host's row is taken next, so on PostgreSQL claims on one host take turns; SQLite runs one writer at a
 * time. Throws NothingClaimed after taking the turn without a page: the caller undoes the turn.
 */
async function claimPage(trx: DbExecutor, crawl: ClaimingCrawl, limits: ClaimLimits, counters: CrawlCounters | undefined): Promise<Claim> {
  if (crawl.mode === 'list') return claimListPage(trx, crawl, limits, counters);
  if (counters?.state !== 'running') return { stopped: true };
  const retryAt = await takeHostTurn(trx, crawl.project, limits.now, crawl.crawl_delay_ms);
  if (retryAt !== null) return { busy: true, retryAt };
  const fetching = await inFlightOnHost(trx, crawl.project, crawl.id, limits.now);
  if (fetching.onHost >= limits.concurrency) return nothingClaimed({ busy: true, retryAt: limits.now });
  const idle = { idle: true as const, inFlight: fetching.ours };
  if (counters.pages_crawled + fetching.ours >= crawl.max_pages) return nothingClaimed(idle);
  const next = await nextClaimable(trx, crawl, limits.now, fetching.linked > 0);
  if (next === undefined) return nothingClaimed(idle);
  if (counters.requests >= maxRequestsOf(crawl)) {
    // Out of requests with a page still to fetch: the crawl ends without it (reason 'limit' when it
    // finishes). A page whose claim ran out goes back to waiting, kept (not undone) with the turn, so
    // it ends unvisited like the others rather than half fetched.
    if (!next.lapsed) return nothingClaimed(idle);
    await trx.updateTable('crawl_pages').set({ state: 'pending', lease_until: null }).where('id', '=', next.id).execute();
    return idle;
  }
  return takeRow(trx, crawl, limits, next);
}

/**
 * A list crawl's claim (docs/crawls.md, "List mode"): max_pages and max_depth do not apply (the list
 * holds at most max_pages URLs, and only those are analysed); the request budget counts every listed
 * host's requests together. Of the nearest waiting URLs, the first on a host whose turn has come and
 * whose slots are not all taken is claimed, that host's turn taken. The hosts' rows are taken in name
 * order, so two claims never wait on each other's in a cycle.
 */
async function claimListPage(trx: DbExecutor, crawl: ClaimingCrawl, limits: ClaimLimits, counters: CrawlCounters | undefined): Promise<Claim> {
  if (counters?.state !== 'running') return { stopped: true };
  const idle = { idle: true as const, inFlight: await fetchingOfCrawl(trx, crawl.id, limits.now) };
  const window = await listWindow(trx, crawl.id, limits.now);
  if (window.length === 0) return nothingClaimed(idle);
  if (counters.requests >= maxRequestsOf(crawl)) {
    // As for a spider crawl: a page whose claim ran out goes back to waiting, to end unvisited.
    const lapsed = window.find((row) => row.lapsed);
    if (lapsed === undefined) return nothingClaimed(idle);
    await trx.updateTable('crawl_pages').set({ state: 'pending', lease_until: null }).where('id', '=', lapsed.id).execute();
    return idle;
  }
  const firstOfHost = new Map<string, (typeof window)[number]>();
  for (const row of window) {
    const host = new URL(row.url).host;
    if (!firstOfHost.has(host)) firstOfHost.set(host, row);
  }
  let retryAt: string | undefined;
  for (const host of [...firstOfHost.keys()].sort()) {
    const turnAt = await lockHostTurn(trx, host);
    if (turnAt === undefined) await addHost(trx, host, limits.now);
    else if (turnAt > limits.now) {
      retryAt = retryAt === undefined || turnAt < retryAt ? turnAt : retryAt;
      continue;
    }
    if ((await inFlightOnHost(trx, host, crawl.id, limits.now)).onHost >= limits.concurrency) {
      retryAt = limits.now;
      continue;
    }
    const delayMs = crawl.hostDelays?.get(host) ?? crawl.crawl_delay_ms;
    await moveHostTurn(trx, host, new Date(Date.parse(limits.now) + delayMs).toISOString());
    return takeRow(trx, crawl, limits, firstOfHost.get(host)!);
  }
  return nothingClaimed({ busy: true, retryAt: retryAt ?? limits.now });
}

/** A list crawl's page whose claim ran out, else its nearest waiting URLs (a waiting URL with a reason is never taken). */
async function listWindow(db: DbExecutor, crawlId: number, now: string) {
  const lapsed = await lapsedPage(db, crawlId, now);
  if (lapsed !== undefined) return [lapsed];
  const waiting = await db
    .selectFrom('crawl_pages')
    .select(CLAIM_COLUMNS)
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'pending')
    .where('reason', 'is', null)
    .orderBy('depth')
    .orderBy('id')
    .limit(LIST_WINDOW)
    .execute();
  return waiting.map((row) => ({ ...row, lapsed: false }));
}

/** Claims the row: fetching under the claim's lease, one more attempt, one request counted. */
async function takeRow(trx: DbExecutor, crawl: ClaimingCrawl, limits: ClaimLimits, next: Omit<ClaimedPage, 'attempts'> & { attempts: number }): Promise<Claim> {
  await trx
    .updateTable('crawl_pages')
    .set({ state: 'fetching', lease_until: limits.leaseUntil, attempts: next.attempts + 1 })
    .where('id', '=', next.id)
    .execute();
  await countOnCrawl(trx, crawl.id, { requests: 1 });
  const { id, url, depth, redirects } = next;
  return { claimed: { id, url, depth, redirects, attempts: next.attempts + 1 } };
}

/**
 * A list crawl about to finish: the URLs still waiting were left by the request budget (its claims
 * know no other bound), so they are unvisited with reason limit, whatever their depth.
 */
export async function settleListLeftovers(db: DbExecutor, crawlId: number): Promise<void> {
  await db.updateTable('crawl_pages').set({ reason: 'limit' }).where('crawl_id', '=', crawlId).where('state', '=', 'pending').where('reason', 'is', null).execute();
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
 * then the URLs without a click depth (from a sitemap, linked only from such pages, or where they
 * redirect), once no linked page is being fetched (it may yet link to them, giving them their depth):
 * every link of every page analysed is checked, the linked ones first. max_depth bounds only URLs with
 * a depth; a waiting URL with a reason (a bound's) is never taken.
 */
async function nextClaimable(db: DbExecutor, crawl: Pick<CrawlRow, 'id' | 'max_depth'>, now: string, linkedInFlight: boolean) {
  const lapsed = await lapsedPage(db, crawl.id, now);
  if (lapsed !== undefined) return lapsed;
  const linked = await db
    .selectFrom('crawl_pages')
    .select(CLAIM_COLUMNS)
    .where('crawl_id', '=', crawl.id)
    .where('state', '=', 'pending')
    .where('depth', '<=', crawl.max_depth)
    .where('reason', 'is', null)
    .orderBy('depth')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (linked !== undefined || linkedInFlight) return linked && { ...linked, lapsed: false };
  const unlinked = await db
    .selectFrom('crawl_pages')
    .select(CLAIM_COLUMNS)
    .where('crawl_id', '=', crawl.id)
    .where('state', '=', 'pending')
    .where('depth', 'is', null)
    .where('reason', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return unlinked && { ...unlinked, lapsed: false };
}

/** The crawl's first page whose claim ran out (its process died): claimed again before any other. */
async function lapsedPage(db: DbExecutor, crawlId: number, now: string) {
  const row = await db
    .selectFrom('crawl_pages')
    .select(CLAIM_COLUMNS)
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'fetching')
    .where('lease_until', '<=', now)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row && { ...row, lapsed: true };
}
