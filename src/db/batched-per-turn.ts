// Lookups by key that arrive in the same turn of the event loop, answered by one query for all of them.
// The query runs in the turn's check phase (setImmediate), after every socket that was ready in it has
// been read, so it still runs after each request that asked arrived: as exact as a query per request.
//
// Why: on PostgreSQL every API request looks up its key (with the account's reports version) first,
// and that query's socket write, which wakes a backend, was a quarter of the server's time on the
// projects list with its answers kept in memory, plus the backend's own work on the same cores. Under
// load several requests are read in one turn, and they now share one round trip. SQLite answers a
// lookup in microseconds without a round trip (and keeps it: kept-until-change.ts), so it reads directly.
import type { DbExecutor } from '../repositories/executor.ts';

/** A turn's keys beyond this go in further queries (each a bound array; PostgreSQL has no small cap). */
const MAX_KEYS_PER_QUERY = 500;

interface Waiter<Row> {
  resolve(row: Row | undefined): void;
  reject(error: unknown): void;
}

/**
 * `readMany(db, keys)` returns the rows found for any of the keys; `keyOf(row)` says which key a row
 * answers. The returned lookup resolves each caller's key to its row, or undefined when none was found.
 * Keys asked more than once in a turn are read once. Lookups on different executors never share a query.
 */
export function batchedPerTurn<Row>(
  readMany: (db: DbExecutor, keys: string[]) => Promise<Row[]>,
  keyOf: (row: Row) => string,
): (db: DbExecutor, key: string) => Promise<Row | undefined> {
  const pendingByDatabase = new Map<DbExecutor, Map<string, Waiter<Row>[]>>();

  async function flush(db: DbExecutor): Promise<void> {
    const pending = pendingByDatabase.get(db)!;
    pendingByDatabase.delete(db);
    const keys = [...pending.keys()];
    for (let start = 0; start < keys.length; start += MAX_KEYS_PER_QUERY) {
      const chunk = keys.slice(start, start + MAX_KEYS_PER_QUERY);
      try {
        const found = new Map((await readMany(db, chunk)).map((row) => [keyOf(row), row]));
        for (const key of chunk) for (const waiter of pending.get(key)!) waiter.resolve(found.get(key));
      } catch (error) {
        for (const key of chunk) for (const waiter of pending.get(key)!) waiter.reject(error);
      }
    }
  }

  return (db, key) =>
    new Promise<Row | undefined>((resolve, reject) => {
      let pending = pendingByDatabase.get(db);
      if (!pending) {
        pendingByDatabase.set(db, (pending = new Map()));
        setImmediate(() => void flush(db));
      }
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
    });
}
