import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createDb, parseDatabaseUrl } from '../../src/db/database.ts';

describe('parseDatabaseUrl', () => {
  it('defaults to SQLite at ./data/pagegrade.db', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ dialect: 'sqlite', filename: './data/pagegrade.db' });
  });

  it('reads sqlite:<path>, including the in-memory database', () => {
    expect(parseDatabaseUrl('sqlite:/var/lib/pagegrade/db.sqlite')).toEqual({
      dialect: 'sqlite',
      filename: '/var/lib/pagegrade/db.sqlite',
    });
    expect(parseDatabaseUrl('sqlite:relative/pagegrade.db')).toEqual({ dialect: 'sqlite', filename: 'relative/pagegrade.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ dialect: 'sqlite', filename: ':memory:' });
  });

  it('passes postgres:// and postgresql:// URLs through whole', () => {
    const url = 'postgresql://app:secret@db.internal:5432/pagegrade?sslmode=require';
    expect(parseDatabaseUrl(url)).toEqual({ dialect: 'postgres', connectionString: url });
    expect(parseDatabaseUrl('postgres://localhost/pagegrade')).toEqual({
      dialect: 'postgres',
      connectionString: 'postgres://localhost/pagegrade',
    });
  });

  it('names the accepted schemes when given another one', () => {
    for (const url of ['mysql://localhost/db', 'file:pagegrade.db', 'pagegrade.db', '']) {
      expect(() => parseDatabaseUrl(url)).toThrow('DATABASE_URL must start with postgres://, postgresql:// or sqlite:');
    }
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/needs a file path/);
  });
});

describe('createDb with SQLite', () => {
  it('creates the folder and opens the file with WAL, NORMAL sync, foreign keys and a busy timeout', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pagegrade-createdb-'));
    const filename = join(directory, 'nested', 'folder', 'pagegrade.db');
    const handle = createDb(`sqlite:${filename}`);
    try {
      expect(handle.dialect).toBe('sqlite');
      const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(handle.db)).rows[0] as object)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(1);
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
      expect(await pragma('cache_size')).toBe(-64 * 1024);
      expect(await pragma('wal_autocheckpoint')).toBe(1000);
      expect(await pragma('journal_size_limit')).toBe(8 * 1024 * 1024);
      expect(existsSync(filename)).toBe(true);
    } finally {
      await handle.destroy();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('removes the WAL when the handle is destroyed', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pagegrade-createdb-'));
    const filename = join(directory, 'pagegrade.db');
    try {
      const handle = createDb(`sqlite:${filename}`);
      await sql`create table t (x integer)`.execute(handle.db);
      await sql`insert into t values (1)`.execute(handle.db);
      expect(existsSync(`${filename}-wal`)).toBe(true);
      await handle.destroy();
      expect(existsSync(`${filename}-wal`)).toBe(false);
      expect(existsSync(`${filename}-shm`)).toBe(false);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('keeps the WAL small under writes that never pause', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pagegrade-createdb-'));
    const filename = join(directory, 'pagegrade.db');
    const handle = createDb(`sqlite:${filename}`);
    try {
      await sql`create table t (x text)`.execute(handle.db);
      const row = 'x'.repeat(4_000);
      let largest = 0;
      // About 80 MB written in one-row transactions, with no pause for a checkpoint in between.
      for (let i = 0; i < 20_000; i++) {
        await sql`insert into t values (${row})`.execute(handle.db);
        if (i % 500 === 0) largest = Math.max(largest, statSync(`${filename}-wal`).size);
      }
      // SQLite checkpoints itself every 1,000 pages (4 MB); never 16 MB, let alone the 80 written.
      expect(largest).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await handle.destroy();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('sizes the page cache as asked', async () => {
    const handle = createDb('sqlite::memory:', { sqliteCacheMb: 300 });
    try {
      const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(handle.db);
      expect(rows).toEqual([{ cache_size: -300 * 1024 }]);
    } finally {
      await handle.destroy();
    }
  });

  it('opens an in-memory database', async () => {
    const handle = createDb('sqlite::memory:');
    try {
      const { rows } = await sql<{ answer: number }>`select 6 * 7 as answer`.execute(handle.db);
      expect(rows).toEqual([{ answer: 42 }]);
    } finally {
      await handle.destroy();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('createDb with PostgreSQL', () => {
  it('connects through the pool and reports the dialect', async () => {
    const handle = createDb(process.env.TEST_DATABASE_URL);
    try {
      expect(handle.dialect).toBe('postgres');
      const { rows } = await sql<{ n: number }>`select count(*) as n from (values (1), (2)) as v(x)`.execute(handle.db);
      expect(rows).toEqual([{ n: 2 }]);
    } finally {
      await handle.destroy();
    }
  });

  it('ends the pool when the handle is destroyed', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const name = `pagegrade-close-${process.pid}-${Date.now()}`;
    url.searchParams.set('application_name', name);
    const handle = createDb(url.toString());
    const observer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await observer.connect();
    const connections = async () =>
      Number((await observer.query('select count(*) as n from pg_stat_activity where application_name = $1', [name])).rows[0].n);
    try {
      await sql`select 1`.execute(handle.db);
      expect(await connections()).toBe(1);
      await handle.destroy();
      // A backend leaves pg_stat_activity a moment after its client hung up.
      for (let tries = 0; tries < 50 && (await connections()) > 0; tries++) await new Promise((done) => setTimeout(done, 20));
      expect(await connections()).toBe(0);
    } finally {
      await observer.end();
    }
  });
});
