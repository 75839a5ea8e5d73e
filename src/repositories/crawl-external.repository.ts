// A crawl's external URLs (crawl_externals) and the pages linking to them (crawl_external_links):
// stored with the page that links to them, each once per crawl, then claimed and checked by the
// crawl's work jobs with a lease, as pages are (docs/crawls.md, "External links"). Their own tables,
// so the frontier's rows, bounds and site checks stay about the crawled host.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlExternalRow } from '../db/tables/crawl.table.ts';
import { statementChunks, type DbExecutor } from './executor.ts';

/** URLs looked up per statement: well within both dialects' bound parameters. */
const URLS_PER_STATEMENT = 1_000;

interface StoredExternals {
  /** new URLs stored unchecked: past the crawl's cap */
  unchecked: number;
  /** the crawl has as many URLs to check as its cap allows: every new one is unchecked */
  capReached: boolean;
}

/**
 * Records a page's links to other hosts (`urls`, distinct): a URL new to the crawl gets its row,
 * pending while fewer than `cap.max` are to be checked, else done and unchecked (reason 'limit'); then
 * one link row per URL. In the caller's transaction, which took the crawl's row, so the count of the
 * crawl's URLs holds until it commits. The URLs to check are always the crawl's first `cap.max`, so
 * counting its rows up to `cap.max` says how many are (`cap.reached`: known already, not counted).
 */
export async function storeExternalLinks(trx: DbExecutor, crawlId: number, fromId: number, urls: readonly string[], cap: { max: number; reached: boolean }): Promise<StoredExternals> {
  if (urls.length === 0) return { unchecked: 0, capReached: cap.reached };
  const ids = new Map<string, number>();
  for (const some of inChunks(urls)) {
    const known = await trx.selectFrom('crawl_externals').select(['id', 'url']).where('crawl_id', '=', crawlId).where('url', 'in', some).execute();
    for (const row of known) ids.set(row.url, row.id);
  }
  const fresh = urls.filter((url) => !ids.has(url));
  let unchecked = 0;
  let capReached = cap.reached;
  if (fresh.length > 0) {
    const stored = cap.reached ? cap.max : await countUpTo(trx, crawlId, cap.max);
    const room = Math.max(0, cap.max - stored);
    unchecked = Math.max(0, fresh.length - room);
    capReached = stored + fresh.length >= cap.max;
    const rows = fresh.map((url, index) => ({
      crawl_id: crawlId,
      url,
      host: new URL(url).host,
      state: index < room ? ('pending' as const) : ('done' as const),
      reason: index < room ? null : ('limit' as const),
    }));
    for (const chunk of statementChunks(rows)) {
      const inserted = await trx
        .insertInto('crawl_externals')
        .values(chunk)
        .onConflict((conflict) => conflict.columns(['crawl_id', 'url']).doNothing())
        .returning(['id', 'url'])
        .execute();
      for (const row of inserted) ids.set(row.url, row.id);
    }
  }
  const links = urls.flatMap((url) => {
    const toId = ids.get(url);
    return toId === undefined ? [] : [{ crawl_id: crawlId, to_id: toId, from_id: fromId }];
  });
  for (const chunk of statementChunks(links)) {
    await trx.insertInto('crawl_external_links').values(chunk).onConflict((conflict) => conflict.columns(['crawl_id', 'to_id', 'from_id']).doNothing()).execute();
  }
  return { unchecked, capReached };
}

/** The crawl's external URLs, counted no further than `max` (its unique index's entries, no rows read). */
async function countUpTo(db: DbExecutor, crawlId: number, max: number): Promise<number> {
  const firstOnes = db.selectFrom('crawl_externals').select('url').where('crawl_id', '=', crawlId).limit(max).as('first_ones');
  const { count } = await db.selectFrom(firstOnes).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

interface ClaimedExternal {
  id: number;
  url: string;
  host: string;
  /** the claim's number: only the claim holding it may record the check (a fencing token) */
  attempts: number;
}

interface ExternalClaimLimits {
  now: string;
  leaseUntil: string;
}

/** Candidate rows read per claim, of which those on hosts with a free slot are taken. */
const CANDIDATES_PER_CLAIM = 50;

/** Waiting to be checked, or claimed by a job whose lease ran out (its process is thought dead). */
const claimable = (now: string) => sql<boolean>`(crawl_externals.state = 'pending' or (crawl_externals.state = 'checking' and crawl_externals.lease_until <= ${now}))`;

/**
 * Claims up to `max` of the crawl's URLs to check, at most `room(host)` on each host (this process's
 * free slots there; the hosts in `full` have none), while the crawl runs. Each row is taken by one
 * claim only: the update says again what it found claimable, so of two claims racing for a row one
 * gets it (PostgreSQL re-reads a row another transaction changed; SQLite has one writer).
 */
export async function claimExternals(db: DbExecutor, crawlId: number, limits: ExternalClaimLimits, max: number, room: (host: string) => number, full: readonly string[]): Promise<ClaimedExternal[]> {
  let candidates = db
    .selectFrom('crawl_externals')
    .select(['id', 'host'])
    .where('crawl_id', '=', crawlId)
    // The partial index of the URLs not done: what a claim reads, however many were checked.
    .where('state', '<>', 'done')
    .where(claimable(limits.now));
  if (full.length > 0) candidates = candidates.where('host', 'not in', [...full]);
  const rows = await candidates.orderBy('id').limit(CANDIDATES_PER_CLAIM).execute();
  const picked: number[] = [];
  const taken = new Map<string, number>();
  for (const row of rows) {
    if (picked.length >= max) break;
    const onHost = taken.get(row.host) ?? 0;
    if (onHost >= room(row.host)) continue;
    taken.set(row.host, onHost + 1);
    picked.push(row.id);
  }
  if (picked.length === 0) return [];
  const claimed = await db
    .updateTable('crawl_externals')
    .set((eb) => ({ state: 'checking' as const, lease_until: limits.leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', picked)
    .where('state', '<>', 'done')
    .where(claimable(limits.now))
    .where(sql<boolean>`exists (select 1 from crawls where crawls.id = ${crawlId} and crawls.state = 'running')`)
    .returning(['id', 'url', 'host', 'attempts'])
    .execute();
  return claimed.sort((a, b) => a.id - b.id);
}

/** Whether any of the crawl's URLs is still to be checked or being checked: its finish waits for them. */
export async function hasUnsettledExternals(db: DbExecutor, crawlId: number): Promise<boolean> {
  const row = await db.selectFrom('crawl_externals').select('id').where('crawl_id', '=', crawlId).where('state', '<>', 'done').limit(1).executeTakeFirst();
  return row !== undefined;
}

type ExternalOutcomeColumns = Pick<CrawlExternalRow, 'status_code' | 'redirect_target' | 'content_type' | 'error'>;

/**
 * Records a check, if `claim` still holds its URL, and counts it in the crawl's external_checked;
 * returns whether it did. The crawl's row is taken first, as every transaction on a crawl's URLs does.
 */
export async function recordExternal(db: Kysely<Database>, crawlId: number, claim: Pick<ClaimedExternal, 'id' | 'attempts'>, outcome: ExternalOutcomeColumns): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const counted = await trx
      .updateTable('crawls')
      .set((eb) => ({ external_checked: eb('external_checked', '+', 1) }))
      .where('id', '=', crawlId)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) === 0) return false;
    const recorded = await trx
      .updateTable('crawl_externals')
      .set({ ...outcome, state: 'done', lease_until: null })
      .where('id', '=', claim.id)
      .where('state', '=', 'checking')
      .where('attempts', '=', claim.attempts)
      .executeTakeFirst();
    if (Number(recorded.numUpdatedRows) > 0) return true;
    // Another claim holds it now: the count is undone with the rest.
    throw new ClaimLost();
  }).catch((error: unknown) => {
    if (error instanceof ClaimLost) return false;
    throw error;
  });
}

class ClaimLost extends Error {}

function* inChunks(urls: readonly string[]): Generator<string[]> {
  for (let start = 0; start < urls.length; start += URLS_PER_STATEMENT) yield urls.slice(start, start + URLS_PER_STATEMENT);
}
