// The dialect matrix for tests: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. Every test
// database is isolated (a temp file, or a schema of its own), because test files run in parallel.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { createDb, type Database, type DialectName } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

/** A database URL for the app (`buildApp({ databaseUrl })`) that nothing else uses; drop() removes it. */
export interface ScratchDatabase {
  dialect: DialectName;
  databaseUrl: string;
  drop(): Promise<void>;
}

/** A migrated database with an open handle. */
export interface TestDatabase extends ScratchDatabase {
  db: Kysely<Database>;
  /** closes the handle, then drops the database */
  destroy(): Promise<void>;
}

/**
 * PAGEGRADE_SECRET_KEY for apps and processes on a test database: PostgreSQL refuses to start without
 * one (SQLite makes its own beside the database file). Never a real key.
 */
export const TEST_SECRET_KEY = 'test-secret-key-for-pagegrade-tests-only';

export function testDialects(): DialectName[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** An empty, unmigrated database of the dialect. */
export async function createScratchDatabase(dialect: DialectName): Promise<ScratchDatabase> {
  switch (dialect) {
    case 'sqlite':
      return createSqliteFile();
    case 'postgres':
      return createPostgresSchema(postgresServerUrl());
    default:
      throw new Error(`unknown dialect ${JSON.stringify(dialect satisfies never)}`);
  }
}

/** A fresh, migrated database of the dialect, opened through createDb like the app does. */
export async function openTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(dialect);
  const handle = createDb(scratch.databaseUrl);
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await handle.destroy();
    await scratch.drop();
    throw error;
  }
  return {
    ...scratch,
    db: handle.db,
    destroy: async () => {
      await handle.destroy();
      await scratch.drop();
    },
  };
}

/** Runs `work` on an empty, unmigrated database opened through createDb (migration tests apply their own steps), then removes it. */
export async function withUnmigratedDatabase(dialect: DialectName, work: (db: Kysely<any>) => Promise<void>): Promise<void> {
  const scratch = await createScratchDatabase(dialect);
  const handle = createDb(scratch.databaseUrl);
  try {
    await work(handle.db as Kysely<any>);
  } finally {
    await handle.destroy();
    await scratch.drop();
  }
}

/**
 * `describe` once per dialect, with one migrated database for the whole block (tests isolate
 * themselves, e.g. by creating their own user). Call `database()` inside tests and hooks.
 */
export function forEachDialect(name: string, defineTests: (database: () => TestDatabase) => void): void {
  describe.each(testDialects())(`${name} [%s]`, (dialect) => {
    let current: TestDatabase | undefined;
    beforeAll(async () => {
      current = await openTestDatabase(dialect);
    });
    afterAll(async () => {
      await current?.destroy();
    });
    defineTests(() => {
      if (current === undefined) throw new Error('the test database is opened in beforeAll; use it inside tests');
      return current;
    });
  });
}

async function createSqliteFile(): Promise<ScratchDatabase> {
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-test-'));
  return {
    dialect: 'sqlite',
    databaseUrl: `sqlite:${join(directory, 'pagegrade.db')}`,
    drop: () => rm(directory, { recursive: true, force: true }),
  };
}

function postgresServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: PostgreSQL tests need a server');
  return url;
}

async function createPostgresSchema(serverUrl: string): Promise<ScratchDatabase> {
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, async (client) => {
    await ensureTrigramExtension(client);
    await client.query(`create schema ${schema}`);
  });
  const url = new URL(serverUrl);
  // pg reads `options` from the connection string and sends it at connect time: every pooled
  // connection lands in the schema. public stays on the path for the pg_trgm functions.
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return {
    dialect: 'postgres',
    databaseUrl: url.toString(),
    drop: async () => {
      await withClient(serverUrl, (client) => client.query(`drop schema if exists ${schema} cascade`));
    },
  };
}

/**
 * CREATE EXTENSION is database-wide and would otherwise land in the first test schema to migrate
 * (then vanish with it), so it is made once in public. The lock serialises parallel test files.
 */
async function ensureTrigramExtension(client: pg.Client): Promise<void> {
  await client.query('begin');
  try {
    await client.query(`select pg_advisory_xact_lock(hashtext('pagegrade-test-pg_trgm'))`);
    await client.query('create extension if not exists pg_trgm schema public');
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
