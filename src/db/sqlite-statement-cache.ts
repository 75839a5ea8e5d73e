// Kysely's SQLite driver calls prepare() for every query it runs, and better-sqlite3 compiles the SQL
// anew each time: on a list request that compiling cost more than running the queries. The app's
// queries come from a small set of shapes, so compiled statements are kept by SQL text and reused.
// Each is compiled with its placeholders hidden from the planner (sqlite-value-blind-sql.ts), or
// SQLite would compile it again on most runs anyway.
import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { withValueBlindPlaceholders } from './sqlite-value-blind-sql.ts';

/** Far more shapes than the app has (each filter x sort of a list is one); bounds memory all the same. */
const MAX_STATEMENTS = 500;
/** Multi-row inserts have a shape per row count and are run once; longer SQL is not kept. */
const MAX_CACHED_SQL_CHARS = 10_000;

export function withStatementCache(database: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      const cached = statements.get(sql);
      // A statement still being iterated (a streamed query) cannot run again until it is done.
      if (cached !== undefined && !cached.busy) {
        // Re-inserting keeps the map in least-recently-used order for eviction.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(withValueBlindPlaceholders(sql));
      if (cached === undefined && sql.length <= MAX_CACHED_SQL_CHARS) {
        if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
