// A stored crawl as the site checks read it: a handle on its rows, walked in bounded steps. Every
// statement here reads a bounded number of rows whatever the site's size or shape (a range of ids, or
// a fixed count of index entries), and the event loop gets a turn between statements, because SQLite
// (better-sqlite3) runs each statement synchronously on the calling thread (docs/crawls.md, step 7).
import { PostgresAdapter, sql, type Expression, type SqlBool } from 'kysely';
import type { DbExecutor } from '../repositories/executor.ts';

export interface StoredSite {
  db: DbExecutor;
  crawlId: number;
  /** the crawl's start URL */
  startUrl: string;
  /** the lowest and highest crawl_pages id of the crawl (0 and -1 without pages) */
  firstId: number;
  lastId: number;
}

/** Ids per page range: a statement over one reads at most this many crawl_pages rows. */
export const PAGE_RANGE = 2048;
/** Index entries per step of a walk over a crawl's links, its URLs or a scratch table. */
export const ENTRY_STEP = 5000;

/** Lets timers, sockets and other requests run between two bounded statements. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function isPostgres(db: DbExecutor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The crawl's id span, read from its (crawl_id, url) index a step at a time: a crawl's ids interleave
 * with those of crawls running beside it, and no index gives its min and max id in one bounded read.
 */
export async function openStoredSite(db: DbExecutor, crawlId: number, startUrl: string): Promise<StoredSite> {
  let firstId = Number.MAX_SAFE_INTEGER;
  let lastId = -1;
  let after: string | null = null;
  for (;;) {
    let query = db.selectFrom('crawl_pages').select(['id', 'url']).where('crawl_id', '=', crawlId);
    if (after !== null) query = query.where('url', '>', after);
    const rows = await query.orderBy('url').limit(ENTRY_STEP).execute();
    for (const row of rows) {
      if (row.id < firstId) firstId = row.id;
      if (row.id > lastId) lastId = row.id;
    }
    if (rows.length < ENTRY_STEP) break;
    after = rows[rows.length - 1].url;
    await yieldToEventLoop();
  }
  return { db, crawlId, startUrl, firstId: lastId < 0 ? 0 : firstId, lastId };
}

/** The crawl's id span in ranges of PAGE_RANGE ids, the event loop served before each. */
export async function* pageRanges(site: StoredSite): AsyncGenerator<{ from: number; to: number }> {
  for (let from = site.firstId; from <= site.lastId; from += PAGE_RANGE) {
    await yieldToEventLoop();
    yield { from, to: Math.min(site.lastId, from + PAGE_RANGE - 1) };
  }
}

/**
 * The crawl's rows among ids from..to. `+crawl_id` keeps SQLite on the id (rowid) range: with the
 * crawl's own index it would read every row of the crawl for each range.
 */
export function inPageRange(site: StoredSite, from: number, to: number): Expression<SqlBool> {
  return sql<SqlBool>`+crawl_pages.crawl_id = ${site.crawlId} and crawl_pages.id between ${from} and ${to}`;
}

/** Splits a list into chunks for `in (...)` lists. */
export function* chunksOf<T>(items: readonly T[], size = 500): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
