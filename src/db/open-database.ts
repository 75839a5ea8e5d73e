// Opens the configured database and brings its schema up to date: what the server, the CLI and
// the API tests start from.
import type { Kysely } from 'kysely';
import { createDb, type CreateDbOptions, type Database, type DialectName } from './database.ts';
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
    throw error;
  }
}
