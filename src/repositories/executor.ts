// What every repository function takes first: the database or a transaction on it, and the helpers
// the bulk inserts share.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';

export type DbExecutor = Kysely<Database> | Transaction<Database>;

/** SQLite's default cap on bound parameters per statement (PostgreSQL allows 65,535). */
const MAX_BOUND_PARAMETERS = 32_766;

/** Runs `work` in the caller's transaction when `db` is one, else in a new one. */
export async function inOneTransaction<T>(db: DbExecutor, work: (trx: DbExecutor) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(work);
}

/** Splits rows into the largest multi-row statements both dialects accept. */
export function* statementChunks<Row extends object>(rows: readonly Row[]): Generator<Row[]> {
  // A statement binds every column any of its rows names (missing ones become DEFAULT).
  const columns = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) columns.add(key);
  const perStatement = Math.max(1, Math.floor(MAX_BOUND_PARAMETERS / Math.max(1, columns.size)));
  for (let start = 0; start < rows.length; start += perStatement) yield rows.slice(start, start + perStatement);
}
