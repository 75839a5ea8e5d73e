// A list page's items as one JSON text, joined by commas, without brackets: for reports each row's
// stored summary with its id put in front (`{"id":<id>,` + the summary without its `{`, as itemJson
// does), for projects each stored summary as it is.
//
// On SQLite the database joins them and the page crosses into JavaScript as one value, UTF-8 bytes
// neither decoded nor encoded again. At a million reports a filtered page of 65 items cost 130-140 µs
// in a tight loop read as rows (65 row objects and strings decoded from UTF-8, each item and the body
// concatenated, the body encoded again) and 57-61 µs read as one value; through the server the read
// benchmark's filtered list went from 2,400-2,550 to 3,060-3,120 req/s, the default list from 2,370-2,520 to
// 3,190-3,540 and the projects list from 4,240-4,480 to 4,860 (no kept answers, alternating runs).
// On PostgreSQL the same aggregate cost more than it saved (a page 393 -> 713 µs: its text functions
// and string_agg are slower than pg's row parsing), so there the rows are joined in JavaScript.
//
// Order: SQLite joins the rows in the order of the ordered subquery it reads. Its documentation calls
// group_concat's order arbitrary, but SQLite keeps a FROM-clause subquery's ORDER BY under an aggregate
// outer query for group_concat's sake: the query flattener's restriction (16), "if the outer query is
// aggregate, then the subquery may not use ORDER BY", from ticket #2942 (group_concat over an ordered
// subquery lost its order), guarded by SQLite's own test tkt2942.test. group_concat's own ORDER BY
// (SQLite 3.44) sorted the 37 KB page again: +35 µs a page. The plan test checks that each list shape
// reads its page as a co-routine in index order, and joined-items-json.test.ts compares every shape's
// joined page with its rows.
import { PostgresAdapter, sql, type AliasedSelectQueryBuilder, type RawBuilder } from 'kysely';
import type { DbExecutor } from './executor.ts';

/** A page's items as one JSON text (empty when there are none), and how many there are. */
export interface JoinedItems {
  count: number;
  /**
   * the items joined by commas, without brackets: UTF-8 bytes from SQLite, text on PostgreSQL, or
   * bytes held elsewhere that copy themselves straight into the answer (the in-memory list index)
   */
  json: string | Buffer | ItemBytes;
}

/** UTF-8 bytes of joined items held elsewhere: copied where the answer wants them, or written as they are. */
export interface ItemBytes {
  byteLength: number;
  copyTo(target: Buffer, at: number): void;
  /** how many separate byte ranges the items are in */
  partCount: number;
  /** the ranges as views of the bytes that hold them, in order (nothing copied) */
  parts(): Buffer[];
}


/** What selectJoinedItems reads: its one row. */
export interface JoinedRow {
  count: number;
  items: Buffer | null;
}

/** SQLite: a report's list item from a row of `page`: its id put in front of the stored summary (substr of a blob counts bytes). */
export const SQLITE_REPORT_ITEM: RawBuilder<Buffer> = sql`'{"id":' || page.id || ',' || substr(cast(page.summary_json as blob), 2)`;

/**
 * SQLite: the one row of a page (an ordered subquery aliased `page`): how many rows it has, and `item`
 * (an expression over its columns) of each, joined by commas in its order, as a blob, which
 * better-sqlite3 hands over as bytes.
 */
export function selectJoinedItems(db: DbExecutor, page: AliasedSelectQueryBuilder<object, 'page'>, item: RawBuilder<string | Buffer>) {
  return db
    .selectFrom(page)
    .select((eb) => [eb.fn.countAll<number>().as('count'), sql<Buffer | null>`cast(group_concat(${item}, ',') as blob)`.as('items')]);
}

/**
 * A page's items joined: by SQLite itself (`readJoined`, a read of selectJoinedItems), or on
 * PostgreSQL from the items read as rows (`readRows`).
 */
export async function joinedItems(
  db: DbExecutor,
  readJoined: () => Promise<JoinedRow[]>,
  readRows: () => Promise<string[]>,
): Promise<JoinedItems> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return fromItemTexts(await readRows());
  const [row] = await readJoined();
  return fromJoinedRow(row);
}

/** The aggregate's one row as JoinedItems (an aggregate over no rows joins to null). */
export function fromJoinedRow(row: JoinedRow | undefined): JoinedItems {
  return { count: row?.count ?? 0, json: row?.items ?? '' };
}

/** Items read as rows, joined here. */
export function fromItemTexts(items: readonly string[]): JoinedItems {
  return { count: items.length, json: items.join(',') };
}
