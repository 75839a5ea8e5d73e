// Rows read again from memory while nothing at all has changed in the database since they were read.
// On SQLite one connection per process does all of its writes, and PRAGMA data_version tells when
// another connection committed, so "nothing changed" costs one statement of a few microseconds, a read
// transaction and no rows (DirectReader.changeStamp; 4.6 µs in a tight loop on the benchmark's VM);
// PostgreSQL has no such signal, so there every call reads.
//
// Why: every API request looks up its key (with the account's reports version) before anything else.
// When the rest of the answer is kept in memory (http/kept-list-bodies.ts) that lookup was a third of
// the request's time on SQLite (34 µs of a projects list's ~60). Any write, a revoked key as much as a
// new report, changes the stamp, and the next call reads again: exact, as reading every time is.
import type { DbExecutor } from '../repositories/executor.ts';
import { changeStampOf } from './prepared-reads.ts';

/** Past this many rows kept under one stamp, all are let go (keys are few; this bounds a flood). */
const MAX_ROWS = 10_000;

interface Kept<Row> {
  stamp: string;
  rows: Map<string, Row>;
}

/**
 * `read(db, key)` answered from memory while the database's change stamp has not moved. Only rows that
 * were found are kept: an unknown key reads every time, so guessing keys cannot fill memory.
 */
export function keptUntilChange<Row>(
  read: (db: DbExecutor, key: string) => Promise<Row | undefined>,
): (db: DbExecutor, key: string) => Promise<Row | undefined> {
  const keptByDatabase = new WeakMap<object, Kept<Row>>();
  return async (db, key) => {
    // The stamp first: a change between it and the read is kept under the older stamp, never asked again.
    const stamp = changeStampOf(db);
    if (stamp === undefined) return read(db, key);
    let kept = keptByDatabase.get(db);
    if (kept?.stamp !== stamp) keptByDatabase.set(db, (kept = { stamp, rows: new Map() }));
    const found = kept.rows.get(key);
    if (found !== undefined) return found;
    const row = await read(db, key);
    if (row !== undefined) {
      if (kept.rows.size >= MAX_ROWS) kept.rows.clear();
      kept.rows.set(key, row);
    }
    return row;
  };
}
