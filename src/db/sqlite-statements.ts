// better-sqlite3 compiles SQL on every prepare(), and Kysely's SQLite driver prepares every statement
// each time it runs. A background analysis runs about twenty statements of a dozen shapes, and
// compiling them again each time cost about 1.3 ms of CPU per report (a CPU profile of the queue
// benchmark, docs/performance.md):
// here each SQL text is compiled once and its statement reused (values are bound, never in the text).
import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

/** Distinct SQL texts kept; `in (?, ?, ...)` lists of every length are the only unbounded family. */
const STATEMENTS_KEPT = 500;

export function reusingStatements(database: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => void database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        if (statements.size >= STATEMENTS_KEPT) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
