// Pages grouped by one of their values (a title, a canonical, ...) without a per-page object in
// memory and without one long statement: the (value, url) pairs go, a page range at a time, into a
// scratch table keyed by them, then its key is walked ENTRY_STEP entries at a time, each group
// counted, and the first URLs of the groups kept read from the key. The scratch table is a temporary
// one: on PostgreSQL it lives on one pinned connection of the pool; SQLite's single connection sees it
// as any other (pinning that would stop every other query while the finish runs).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { MAX_PAGES_PER_ITEM } from './site-checks/site-check.ts';
import type { DbExecutor } from '../repositories/executor.ts';
import { ENTRY_STEP, PAGE_RANGE, inPageRange, isPostgres, pageRanges, yieldToEventLoop, type StoredSite } from './site-scan.ts';

interface ValueGroup {
  value: string;
  count: number;
  /** the group's first URL in code-point order */
  firstUrl: string;
  /** the largest `flag` of its pages */
  flag: number;
}

export interface GroupSource {
  /** the grouped value of a crawl_pages row (null: the row joins no group) */
  value: RawBuilder<string | null>;
  /** which rows take part */
  where: RawBuilder<SqlBool>;
  /** a 0/1 a group keeps the largest of (default 0) */
  flag?: RawBuilder<number>;
  /** what joins crawl_pages to give several values a row (`, json_each(...) as listed`); none by default */
  join?: RawBuilder<unknown>;
}

export interface GroupReader {
  /** The groups of at least `minCount` pages in value order, a step at a time. */
  groups(minCount: number): AsyncGenerator<ValueGroup[]>;
  /** The first `limit` (MAX_PAGES_PER_ITEM) URLs of a group, in code-point order. */
  firstUrls(value: string, limit?: number): Promise<string[]>;
}

let scratchTables = 0;

/** SQLite's page cache for temporary tables, in KiB. */
const TEMP_CACHE_KIB = 64 * 1024;
const INSERT_RANGE = PAGE_RANGE / 4;

/** Groups the crawl's pages by `source.value`, gives `read` the groups, then drops the scratch table. */
export async function withPageGroups<T>(site: StoredSite, source: GroupSource, read: (groups: GroupReader) => Promise<T>): Promise<T> {
  const table = `site_groups_${site.crawlId}_${++scratchTables}`;
  if (!isPostgres(site.db)) return inScratch(site.db, site, table, source, read);
  // A temporary table is the connection's own: every statement on it goes through one.
  return site.db.connection().execute((connection) => inScratch(connection, site, table, source, read));
}

async function inScratch<T>(db: DbExecutor, site: StoredSite, name: string, source: GroupSource, read: (groups: GroupReader) => Promise<T>): Promise<T> {
  const table = sql.table(name);
  const postgres = isPostgres(db);
  // Code-point order on PostgreSQL too, as SQLite's BINARY compares.
  const text = postgres ? sql`text collate "C"` : sql`text`;
  // SQLite's temporary tables live in a file with a page cache of their own, 2 MB by default: a larger one
  // (still bounded) keeps each step's inserts from re-reading the file.
  if (!postgres) await sql`pragma temp.cache_size = ${sql.raw(String(-TEMP_CACHE_KIB))}`.execute(db);
  await sql`create temporary table ${table} (value ${text} not null, url ${text} not null, flag integer not null, primary key (value, url))${postgres ? sql`` : sql` without rowid`}`.execute(db);
  try {
    for await (const range of pageRanges(site)) {
      // A key insert costs more than a read: a quarter range at a time.
      for (let from = range.from; from <= range.to; from += INSERT_RANGE) {
        await sql`insert into ${table} (value, url, flag)
          select ${source.value}, crawl_pages.url, ${source.flag ?? sql`0`} from crawl_pages${source.join ?? sql``}
          where ${inPageRange(site, from, Math.min(range.to, from + INSERT_RANGE - 1))} and (${source.where}) and ${source.value} is not null`.execute(db);
        await yieldToEventLoop();
      }
    }
    return await read(reader(db, table));
  } finally {
    await sql`drop table if exists ${table}`.execute(db);
  }
}

function reader(db: DbExecutor, table: ReturnType<typeof sql.table>): GroupReader {
  const after = (value: string, url: string): Expression<SqlBool> => sql<SqlBool>`(value, url) > (${value}, ${url})`;
  return {
    async *groups(minCount) {
      let cursor: { value: string; url: string } | null = null;
      let carried: ValueGroup | null = null;
      for (;;) {
        await yieldToEventLoop();
        const lower: Expression<SqlBool> = cursor === null ? sql<SqlBool>`1 = 1` : after(cursor.value, cursor.url);
        const end: { value: string; url: string } | undefined = (
          await sql<{ value: string; url: string }>`select value, url from ${table} where ${lower} order by value, url limit 1 offset ${ENTRY_STEP - 1}`.execute(db)
        ).rows[0];
        await yieldToEventLoop();
        const upper = end ? sql<SqlBool>`(value, url) <= (${end.value}, ${end.url})` : sql<SqlBool>`1 = 1`;
        // Only groups large enough, and those at either end of the step (they may go on in the next).
        const keep = sql<SqlBool>`count(*) >= ${minCount} or value = ${cursor?.value ?? null} or value = ${end?.value ?? null}`;
        const { rows } = await sql<{ value: string; count: number | string; first_url: string; flag: number | string }>`
          select value, count(*) as count, min(url) as first_url, max(flag) as flag from ${table}
          where ${lower} and ${upper} group by value having ${keep} order by value`.execute(db);
        const complete: ValueGroup[] = [];
        for (const row of rows) {
          const group = { value: row.value, count: Number(row.count), firstUrl: row.first_url, flag: Number(row.flag) };
          if (carried !== null && carried.value === group.value) {
            carried.count += group.count;
            carried.flag = Math.max(carried.flag, group.flag);
            continue;
          }
          if (carried !== null && carried.count >= minCount) complete.push(carried);
          carried = group;
        }
        if (!end) {
          if (carried !== null && carried.count >= minCount) complete.push(carried);
          if (complete.length > 0) yield complete;
          return;
        }
        if (complete.length > 0) yield complete;
        cursor = end;
      }
    },
    async firstUrls(value, limit = MAX_PAGES_PER_ITEM) {
      await yieldToEventLoop();
      const { rows } = await sql<{ url: string }>`select url from ${table} where value = ${value} order by url limit ${limit}`.execute(db);
      return rows.map((row) => row.url);
    },
  };
}
