// Opens the configured database and brings its schema up to date: what the server, the CLI and
// the API tests start from.
import type { Kysely } from 'kysely';
import { createDb, type CreateDbOptions, type Database, type DialectName } from './database.ts';
import { isDatabaseUnavailable } from './database-errors.ts';
import { migrateToLatest } from './migrate.ts';

export interface AppDatabase {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Migrations applied by this open (empty when the schema was already current). */
  appliedMigrations: string[];
  close(): Promise<void>;
}

export async function openDatabase(databaseUrl: string | undefined, options: CreateDbOptions = {}): Promise<AppDatabase> {
  const handle = createDb(databaseUrl, options);
  try {
    const appliedMigrations = await migrateToLatest(handle.db);
    return { db: handle.db, dialect: handle.dialect, appliedMigrations, close: handle.destroy };
  } catch (error) {
    await handle.destroy();
    throw isDatabaseUnavailable(error) ? unreachable(databaseUrl, error) : error;
  }
}

/** Says which database did not answer (without its password) and what to check. */
function unreachable(databaseUrl: string | undefined, cause: unknown): Error {
  let where = databaseUrl ?? 'the default SQLite file';
  if (databaseUrl && URL.canParse(databaseUrl)) {
    const url = new URL(databaseUrl);
    where = `${url.protocol}//${url.host}${url.pathname}`;
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new Error(
    `the database at ${where} did not answer (${reason}). Check DATABASE_URL and that the database is running ` +
      'and accepts connections; PAGEGRADE_DB_CONNECT_TIMEOUT_MS sets how long to wait for it.',
    { cause },
  );
}
