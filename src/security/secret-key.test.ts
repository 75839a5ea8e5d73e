import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { POSTGRES_NEEDS_SECRET_KEY, resolveSecretKey } from './secret-key.ts';

describe('resolving the secret key', () => {
  const directories: string[] = [];
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  async function directory(): Promise<string> {
    const made = await mkdtemp(join(tmpdir(), 'pagegrade-secret-key-'));
    directories.push(made);
    return made;
  }

  it('uses PAGEGRADE_SECRET_KEY when set, on either database, and writes no file', async () => {
    const dir = await directory();
    const key = 'k'.repeat(40);
    expect(resolveSecretKey({ secretKey: key, databaseUrl: `sqlite:${join(dir, 'a.db')}` })).toEqual({ key });
    expect(resolveSecretKey({ secretKey: key, databaseUrl: 'postgres://db.example/pagegrade' })).toEqual({ key });
    await expect(stat(join(dir, 'a.db.secret-key'))).rejects.toThrow(/ENOENT/);
  });

  it('on PostgreSQL without it, refuses with a message saying what to set', () => {
    expect(() => resolveSecretKey({ secretKey: undefined, databaseUrl: 'postgresql://db.example/pagegrade' })).toThrow(ConfigError);
    expect(() => resolveSecretKey({ secretKey: undefined, databaseUrl: 'postgres://db.example/pagegrade' })).toThrow(POSTGRES_NEEDS_SECRET_KEY);
    expect(POSTGRES_NEEDS_SECRET_KEY).toMatch(/^PAGEGRADE_SECRET_KEY must be set: every process sharing a PostgreSQL database needs the same key to sign webhooks/);
  });

  it('on SQLite without it, makes an owner-only key file beside the database once, says so once, and reuses it', async () => {
    const dir = await directory();
    const settings = { secretKey: undefined, databaseUrl: `sqlite:${join(dir, 'nested', 'pagegrade.db')}` };
    const made = resolveSecretKey(settings);
    const file = join(dir, 'nested', 'pagegrade.db.secret-key');
    expect(made.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.notice).toContain(file);
    expect(made.notice).not.toContain(made.key);
    expect((await readFile(file, 'utf8')).trim()).toBe(made.key);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const again = resolveSecretKey(settings);
    expect(again).toEqual({ key: made.key });
  });

  it('refuses a key file that holds no usable key rather than replacing it', async () => {
    const dir = await directory();
    await writeFile(join(dir, 'p.db.secret-key'), 'short\n');
    expect(() => resolveSecretKey({ secretKey: undefined, databaseUrl: `sqlite:${join(dir, 'p.db')}` })).toThrow(
      /p\.db\.secret-key holds no key of at least 32 characters/,
    );
  });

  it('an in-memory SQLite database gets a key of its own that dies with it', () => {
    const first = resolveSecretKey({ secretKey: undefined, databaseUrl: 'sqlite::memory:' });
    expect(first.key).toHaveLength(43);
    expect(resolveSecretKey({ secretKey: undefined, databaseUrl: 'sqlite::memory:' }).key).not.toBe(first.key);
  });
});
