// A list page's items as one JSON text: each row's stored summary with its id put in front
// (`{"id":<id>,` + the summary without its `{`, as itemJson does), joined by commas, without brackets.
//
// On SQLite the database joins them and the page crosses into JavaScript as one value, UTF-8 bytes
// neither decoded nor encoded again. At a million reports a filtered page of 65 items cost 130-140 µs
// in a tight loop read as rows (65 row objects and strings decoded from UTF-8, each item and the body
// concatenated, the body encoded again) and 57-61 µs read as one value; through the server the read
// benchmark's filtered list went from 2,400-2,550 to 3,060-3,120 req/s (no kept answers, same hour).
// On PostgreSQL the same aggregate cost more than it saved (a page 393 -> 713 µs: its text functions
// and string_agg are slower than pg's row parsing), so there the rows are joined in JavaScript.
//
// Order: SQLite joins the rows in the order of the ordered subquery it reads. Its documentation calls
// group_concat's order arbitrary, but SQLite keeps a FROM-clause subquery's ORDER BY (and does not
// flatten the subquery away) when the outer query uses an aggregate other than count(), min() or max(),
// so that such an aggregate sees the rows in order (select.c, "omit ORDER BY in subquery", condition 4).
// group_concat's own ORDER BY (SQLite 3.44) sorted the 37 KB page again: +35 µs a page. The tests
// compare every list shape's joined page with its rows.
import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { DbExecutor } from './executor.ts';

/** A page's items as one JSON text (empty when there are none), and how many there are. */
export interface JoinedItems {
  count: number;
  /** the items joined by commas, without brackets: UTF-8 bytes from SQLite, text on PostgreSQL */
  json: string | Buffer;
}

/** Whether the database joins the items itself (SQLite) or hands over rows to join (PostgreSQL). */
export function databaseJoinsItems(db: DbExecutor): boolean {
  return !(db.getExecutor().adapter instanceof PostgresAdapter);
}

/** SQLite: the joined items of a subquery `page` with columns id and summary_json, in its order. */
export function sqliteJoinedItemsJson(): RawBuilder<Buffer | null> {
  // As a blob better-sqlite3 hands the bytes over as they are; substr of a blob counts bytes.
  return sql`cast(group_concat('{"id":' || page.id || ',' || substr(cast(page.summary_json as blob), 2), ',') as blob)`;
}

/** The aggregate's one row as JoinedItems. */
export function joinedItems(row: { count: number; items: Buffer | null } | undefined): JoinedItems {
  return { count: row?.count ?? 0, json: row?.items ?? '' };
}

/** Items read as rows, joined here. */
export function joinedItemTexts(items: readonly string[]): JoinedItems {
  return { count: items.length, json: items.join(',') };
}
