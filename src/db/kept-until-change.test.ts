import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrateToLatest } from './migrate.ts';
import type { Kysely } from 'kysely';
import { createDb, type Database, type DbHandle } from './database.ts';
import { keptUntilChange } from './kept-until-change.ts';
import { attachDirectReader } from './prepared-reads.ts';
import { insertUser } from '../repositories/user.repository.ts';
import { openTestDatabase, testDialects } from '../../test/support/databases.ts';

const NOW = '2026-11-25T10:00:00.000Z';
const newUser = (handle: DbHandle, email: string) => insertUser(handle.db, { email, is_admin: 0, created_at: NOW });

describe('rows kept until the database changes [sqlite]', () => {
  let directory: string;
  let handle: DbHandle;
  /** another process's connection to the same file */
  let other: DbHandle;
  const read = vi.fn(async (_db: unknown, key: string) => (key === 'missing' ? undefined : { key }));
  const kept = keptUntilChange(read);

  beforeEach(async () => {
    read.mockClear();
    directory = await mkdtemp(join(tmpdir(), 'pagegrade-kept-until-change-'));
    handle = createDb(`sqlite:${join(directory, 'db.sqlite')}`);
    await migrateToLatest(handle.db);
    other = createDb(`sqlite:${join(directory, 'db.sqlite')}`);
  });
  afterEach(async () => {
    await other.destroy();
    await handle.destroy();
    await rm(directory, { recursive: true, force: true });
  });

  it('reads once while nothing changes, and each key on its own', async () => {
    expect(await kept(handle.db, 'a')).toEqual({ key: 'a' });
    expect(await kept(handle.db, 'a')).toEqual({ key: 'a' });
    expect(await kept(handle.db, 'b')).toEqual({ key: 'b' });
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads again after a write through the same connection', async () => {
    await kept(handle.db, 'a');
    await newUser(handle, 'same@example.com');
    await kept(handle.db, 'a');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads again after another connection commits', async () => {
    await kept(handle.db, 'a');
    await newUser(other, 'other@example.com');
    await kept(handle.db, 'a');
    await kept(handle.db, 'a');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('never keeps a row that was not found', async () => {
    for (let i = 0; i < 3; i++) expect(await kept(handle.db, 'missing')).toBeUndefined();
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('reads every time inside a transaction, and beside one that is open on the connection', async () => {
    await handle.db.transaction().execute(async (trx) => {
      await kept(trx, 'a');
      await kept(trx, 'a');
      await newUser({ ...handle, db: trx }, 'inside@example.com');
      // The root connection is in the transaction too: its uncommitted write is not everyone's yet.
      await kept(handle.db, 'a');
      await kept(handle.db, 'a');
    });
    expect(read).toHaveBeenCalledTimes(4);
  });
});

describe('one change stamp for the lookups of a turn', () => {
  function fakeDatabase(stamps: string[]) {
    const db = {} as Kysely<Database>;
    const changeStamp = vi.fn(() => stamps.shift());
    attachDirectReader(db, { dialect: 'sqlite', all: () => undefined, changeStamp });
    return { db, changeStamp };
  }

  it('reads the stamp once for the lookups asked in one turn, and again in the next', async () => {
    const { db, changeStamp } = fakeDatabase(['1', '1', '2']);
    const read = vi.fn(async (_db: unknown, key: string) => ({ key }));
    const kept = keptUntilChange(read);
    const first = await Promise.all([kept(db, 'a'), kept(db, 'b'), kept(db, 'a')]);
    expect(changeStamp).toHaveBeenCalledTimes(1);
    expect(first.map((row) => row?.key)).toEqual(['a', 'b', 'a']);
    expect(read).toHaveBeenCalledTimes(3);
    // Same stamp in the next turn: kept.
    await kept(db, 'a');
    expect(changeStamp).toHaveBeenCalledTimes(2);
    expect(read).toHaveBeenCalledTimes(3);
    // The stamp moved: read again.
    await kept(db, 'a');
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('reads the stamp after every lookup of the turn was asked', async () => {
    const { db, changeStamp } = fakeDatabase(['after']);
    const kept = keptUntilChange(async () => ({ found: true }));
    const lookup = kept(db, 'a');
    expect(changeStamp).not.toHaveBeenCalled();
    await lookup;
    expect(changeStamp).toHaveBeenCalledTimes(1);
  });
});

describe.each(testDialects().filter((dialect) => dialect === 'postgres'))('rows kept until the database changes [%s]', (dialect) => {
  it('reads every time: PostgreSQL cannot tell that nothing changed', async () => {
    const test = await openTestDatabase(dialect);
    try {
      const read = vi.fn(async () => ({ found: true }));
      const kept = keptUntilChange(read);
      for (let i = 0; i < 3; i++) await kept(test.db, 'a');
      expect(read).toHaveBeenCalledTimes(3);
    } finally {
      await test.destroy();
    }
  });
});
