// A crawl's frontier: the URLs it found (crawl_pages), the links between them (crawl_links) and what
// fetching each found. Bounded (docs/crawls.md, "Bounds"): the caller gives the room left in the
// frontier. The claim of the next page is in crawl-claim.repository.ts, the host's turns in crawl-host.
import { sql } from 'kysely';
import type { CrawlPageRow, UnvisitedReason } from '../db/tables/crawl.table.ts';
import { inOneTransaction, statementChunks, type DbExecutor } from './executor.ts';
import { countOnCrawl } from './crawl.repository.ts';
import type { ClaimedPage } from './crawl-claim.repository.ts';

export interface FrontierEntry {
  url: string;
  /** null: known only from a sitemap (or from the links of a page known only from one) */
  depth: number | null;
  inSitemap: boolean;
  /** redirects in a row that led here (0: found by a link, a sitemap or as the start URL) */
  redirects?: number;
  /** stored but never claimed (the 11th redirect in a row: 'limit') */
  reason?: UnvisitedReason;
  /** a sitemap URL robots.txt disallows: kept for the site checks, never fetched nor counted as found */
  blocked?: boolean;
}

const rowOf = (crawlId: number, entry: FrontierEntry) => ({
  crawl_id: crawlId,
  url: entry.url,
  state: entry.blocked ? ('blocked' as const) : ('pending' as const),
  depth: entry.depth,
  in_sitemap: entry.inSitemap ? 1 : 0,
  redirects: entry.redirects ?? 0,
  reason: entry.reason ?? null,
});

/** URLs looked up or inserted per statement: well within both dialects' bound parameters. */
const URLS_PER_STATEMENT = 1_000;

/**
 * Adds URLs to the frontier; a URL already there keeps its row, taking the smaller depth and the
 * sitemap mark. Returns how many URLs were new. For seeds, whose number the caller bounds.
 */
export async function addToFrontier(db: DbExecutor, crawlId: number, entries: readonly FrontierEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  return inOneTransaction(db, async (trx) => {
    let added = 0;
    for (const chunk of statementChunks(entries.map((entry) => rowOf(crawlId, entry)))) {
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

export interface FoundUrls {
  /** the id of every entry's row (those not stored have none) */
  ids: Map<string, number>;
  /** new rows */
  added: number;
  /** new URLs that did not fit in `room` */
  unstored: number;
}

/**
 * Adds URLs a page led to (its links, its redirect): at most `room` new rows (what is left of the
 * frontier's bound); the URLs already stored are merged. In the caller's transaction, which took the
 * crawl's row, so nobody adds to this crawl's frontier meanwhile. Returns every stored entry's id.
 */
export async function addFoundUrls(trx: DbExecutor, crawlId: number, entries: readonly FrontierEntry[], room: number): Promise<FoundUrls> {
  const ids = new Map<string, number>();
  for (const urls of inChunks(entries.map((entry) => entry.url))) {
    const known = await trx.selectFrom('crawl_pages').select(['id', 'url']).where('crawl_id', '=', crawlId).where('url', 'in', urls).execute();
    for (const row of known) ids.set(row.url, row.id);
  }
  const known = entries.filter((entry) => ids.has(entry.url));
  const fresh = entries.filter((entry) => !ids.has(entry.url));
  const stored = fresh.slice(0, Math.max(0, room));
  for (const chunk of statementChunks(stored.map((entry) => rowOf(crawlId, entry)))) {
    const inserted = await trx
      .insertInto('crawl_pages')
      .values(chunk)
      .onConflict((conflict) => conflict.columns(['crawl_id', 'url']).doNothing())
      .returning(['id', 'url'])
      .execute();
    for (const row of inserted) ids.set(row.url, row.id);
  }
  if (known.length > 0) await mergeKnown(trx, crawlId, known);
  return { ids, added: stored.length, unstored: fresh.length - stored.length };
}

/** Records an analysed page's links to stored targets (crawl_links), with their nofollow marks. */
export async function insertLinks(trx: DbExecutor, crawlId: number, fromId: number, targets: readonly { toId: number; nofollow: boolean }[]): Promise<void> {
  const rows = targets.map((target) => ({ crawl_id: crawlId, to_id: target.toId, from_id: fromId, nofollow: target.nofollow ? 1 : 0 }));
  for (const chunk of statementChunks(rows)) {
    await trx.insertInto('crawl_links').values(chunk).onConflict((conflict) => conflict.columns(['crawl_id', 'to_id', 'from_id']).doNothing()).execute();
  }
}

/**
 * Sitemap URLs robots.txt disallows, stored as blocked: what the frontier's bound counts besides the
 * found URLs. Read once per crawl and process (they are only added when the crawl starts).
 */
export async function countBlocked(db: DbExecutor, crawlId: number): Promise<number> {
  const { count } = await db
    .selectFrom('crawl_pages')
    .select(sql<number>`count(*)`.as('count'))
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'blocked')
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** A URL found again: nearer the start page than first seen (it is claimed sooner), or in a sitemap. */
async function mergeKnown(db: DbExecutor, crawlId: number, entries: readonly FrontierEntry[]): Promise<void> {
  const byDepth = new Map<number, string[]>();
  for (const entry of entries) {
    if (entry.depth === null) continue;
    const urls = byDepth.get(entry.depth) ?? [];
    urls.push(entry.url);
    byDepth.set(entry.depth, urls);
  }
  for (const [depth, urls] of byDepth) {
    for (const some of inChunks(urls)) {
      await db
        .updateTable('crawl_pages')
        .set({ depth })
        .where('crawl_id', '=', crawlId)
        .where('url', 'in', some)
        .where((eb) => eb.or([eb('depth', 'is', null), eb('depth', '>', depth)]))
        .execute();
    }
  }
  const sitemapUrls = entries.filter((entry) => entry.inSitemap).map((entry) => entry.url);
  for (const some of inChunks(sitemapUrls)) {
    await db.updateTable('crawl_pages').set({ in_sitemap: 1 }).where('crawl_id', '=', crawlId).where('url', 'in', some).execute();
  }
}

function* inChunks(urls: readonly string[]): Generator<string[]> {
  for (let start = 0; start < urls.length; start += URLS_PER_STATEMENT) yield urls.slice(start, start + URLS_PER_STATEMENT);
}

export type CrawlPageOutcome = Pick<
  CrawlPageRow,
  | 'status_code' | 'redirect_target' | 'content_type' | 'error' | 'title' | 'report_id' | 'score' | 'result'
  | 'html' | 'noindex' | 'description' | 'canonical' | 'canonical_blocked' | 'text_hash' | 'hreflang' | 'links_dropped' | 'run_number'
  | 'rich_result_errors'
>;

/**
 * Records what fetching a page found, if `claim` still holds it, and counts the URL as visited;
 * returns whether it did. Callers run it in a transaction that took the crawl's row.
 */
export async function recordPage(db: DbExecutor, claim: Pick<ClaimedPage, 'id' | 'attempts'>, outcome: Partial<CrawlPageOutcome>, crawlId: number): Promise<boolean> {
  const result = await db
    .updateTable('crawl_pages')
    .set({ ...outcome, state: 'done', lease_until: null })
    .where('id', '=', claim.id)
    .where('state', '=', 'fetching')
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await countOnCrawl(db, crawlId, { visited: 1 });
  return true;
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
