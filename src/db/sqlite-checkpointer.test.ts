import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from './sqlite-checkpointer.ts';

interface CheckpointStatus {
  busy: number;
  log: number;
  checkpointed: number;
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe('SQLite checkpointer', () => {
  let directory: string;
  let database: SqliteDatabase.Database;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pagegrade-checkpoint-'));
    database = new SqliteDatabase(join(directory, 'db.sqlite'));
    database.pragma('journal_mode = WAL');
    database.exec('create table t (id integer primary key, body text)');
  });
  afterEach(async () => {
    if (database.open) database.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('has closed its thread\'s connection once stop resolves (the last one: the WAL is gone)', async () => {
    const file = join(directory, 'db.sqlite');
    const checkpointer = startCheckpointer(database, file);
    database.prepare('insert into t (body) values (?)').run('written');
    expect(existsSync(`${file}-wal`)).toBe(true);
    // Once the thread has checkpointed, its connection holds the WAL open too.
    const status = () => (database.pragma('wal_checkpoint(NOOP)') as CheckpointStatus[])[0];
    await waitFor(() => status().log > 0 && status().checkpointed === status().log);
    // The app's connection closes first; the thread's is then the last, and closing it removes the WAL.
    database.close();
    await checkpointer.stop();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('leaves commits no checkpoint to make and copies committed pages back from its own thread', async () => {
    const checkpointer = startCheckpointer(database, join(directory, 'db.sqlite'));
    try {
      expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(16_384);
      const insert = database.prepare('insert into t (body) values (?)');
      for (let i = 0; i < 300; i++) insert.run('x'.repeat(8_000));
      // A passive checkpoint of nothing reports what is in the WAL and how much of it is copied already.
      const status = () => (database.pragma('wal_checkpoint(NOOP)') as CheckpointStatus[])[0];
      expect(status().log).toBeGreaterThan(500);
      await waitFor(() => status().checkpointed === status().log);
    } finally {
      await checkpointer.stop();
    }
  });

  it('keeps the WAL small under writes that never pause', async () => {
    const file = join(directory, 'db.sqlite');
    const checkpointer = startCheckpointer(database, file, { maxWalPages: 256 });
    try {
      const insert = database.prepare('insert into t (body) values (?)');
      const writeBatch = database.transaction(() => {
        for (let i = 0; i < 25; i++) insert.run('x'.repeat(8_000));
      });
      const walSizes: number[] = [];
      const started = Date.now();
      let batches = 0;
      // Back-to-back write transactions for 3 s (about 100 pages each), each after a turn of the event
      // loop as a server's are, the thread checkpointing beside them.
      while (Date.now() - started < 3_000) {
        await new Promise((done) => setImmediate(done));
        writeBatch();
        batches += 1;
        walSizes.push(statSync(`${file}-wal`).size);
      }
      const writtenBytes = batches * 25 * 8_000;
      expect(writtenBytes).toBeGreaterThan(40 * 1024 * 1024);
      // Without the limit the WAL would hold everything written (a PASSIVE checkpoint beside this writer
      // never lets it start over). 256 pages is 1 MiB, usually passed by one transaction (about 200 KiB)
      // before a commit checkpoints; a commit whose checkpoint finds the thread's still running skips it,
      // so on a loaded machine a few more can pass (a CI run saw 2.08 MiB).
      walSizes.sort((a, b) => a - b);
      expect(walSizes[Math.floor(walSizes.length / 2)]).toBeLessThan(2 * 1024 * 1024);
      expect(walSizes.at(-1)).toBeLessThan(writtenBytes / 8);
    } finally {
      await checkpointer.stop();
    }
  });

  it('turns automatic checkpoints back on and reports when its thread fails', async () => {
    const failures: string[] = [];
    startCheckpointer(database, join(directory, 'no-such-file.sqlite'), { onFailure: (message) => failures.push(message) });
    await waitFor(() => failures.length > 0);
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});
