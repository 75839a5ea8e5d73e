// One account's list index made from the database (on the index's own thread: list-index-worker.ts).
// Everything is read in one read-only transaction, a snapshot on both databases (SQLite in WAL mode
// from its first read; PostgreSQL at REPEATABLE READ), so the items, the orders and the reports
// version all describe the same moment, whatever other connections commit meanwhile.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { readIdsInOrder, readIndexItems } from '../repositories/list-index.repository.ts';
import { readReportsVersion } from '../repositories/reports-version.ts';
import { itemsLength, packIndexParts, type IndexParts } from './account-list-index.ts';

export type BuildOutcome =
  /** the account's index as of `version` */
  | { version: number; parts: IndexParts }
  /** its items alone are more than `maxBytes` */
  | { version: number; tooBig: true }
  /** no such account */
  | null;

export async function buildIndexParts(db: Kysely<Database>, userId: number, maxBytes: number): Promise<BuildOutcome> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const version = await readReportsVersion(trx, userId);
      if (version === undefined) return null;
      const rows = await readIndexItems(trx, userId);
      const length = itemsLength(rows);
      if (length > maxBytes) return { version, tooBig: true as const };
      const url = await readIdsInOrder(trx, userId, 'url');
      const generated_at = await readIdsInOrder(trx, userId, 'generated_at');
      return { version, parts: packIndexParts(rows, { url, generated_at }, length) };
    });
}
