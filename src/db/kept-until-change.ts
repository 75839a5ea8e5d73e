// Rows read again from memory while nothing at all has changed in the database since they were read.
// On SQLite one connection per process does all of its writes, and PRAGMA data_version tells when
// another connection committed, so "nothing changed" costs one statement, a read transaction and no
// rows (DirectReader.changeStamp), read once for all the calls of an event-loop turn (stampOfThisTurn);
// PostgreSQL has no such signal, so there every call reads.
//
// Why: every API request looks up its key (with the account's reports version) before anything else.
// When the rest of the answer is kept in memory (http/kept-list-bodies.ts) that lookup was a third of
// the request's time on SQLite (34 µs of a projects list's ~60). Any write, a revoked key as much as a
// new report, changes the stamp, and the next call reads again: exact, as reading every time is.
import type { DbExecutor } from '../repositories/executor.ts';
import { changeStampOf, hasChangeStamp } from './prepared-reads.ts';

/** Past this many rows kept under one stamp, all are let go (keys are few; this bounds a flood). */
const MAX_ROWS = 10_000;

interface Kept<Row> {
  stamp: string;
  rows: Map<string, Row>;
}

/** Callers waiting for the stamp of this turn, by database. */
const waitingForStamp = new Map<DbExecutor, Promise<string | undefined>>();

/**
 * The change stamp read once for every caller of one event-loop turn, in the turn's check phase
 * (setImmediate): after each socket ready in the turn has been read, so after each caller's request
 * arrived, as exact as a read per call. Why: 4.6 µs in a tight loop, the stamp read per request cost
 * the server's main thread far more under load (SQLite's filtered list at a million reports: 156-161
 * µs a request with a read each, 96-101 shared, 5,800 -> 9,300 req/s); several requests arrive in a
 * turn and share one.
 */
function stampOfThisTurn(db: DbExecutor): Promise<string | undefined> {
  let stamp = waitingForStamp.get(db);
  if (stamp === undefined) {
    stamp = new Promise((resolve, reject) =>
      setImmediate(() => {
        waitingForStamp.delete(db);
        try {
          resolve(changeStampOf(db));
        } catch (error) {
          reject(error);
        }
      }),
    );
    waitingForStamp.set(db, stamp);
  }
  return stamp;
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
    if (!hasChangeStamp(db)) return read(db, key);
    // The stamp first: a change between it and the read is kept under the older stamp, never asked again.
    const stamp = await stampOfThisTurn(db);
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
