// With REDIS_URL the per-key rate limit holds across server processes: two real servers sharing one
// database and one Redis count the same key's requests together.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { serverCommand } from '../support/processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const REDIS_URL = TEST_REDIS_URL;

const available = await testRedisAvailable(REDIS_URL);

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pagegrade-redis-'));
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function startServer(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, serverCommand(), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolveOrigin, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveOrigin(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

describe.skipIf(!available)('rate limit shared through Redis', () => {
  it('counts one key across two server processes', async () => {
    // A fresh random key, so earlier runs' counts in the same Redis cannot interfere.
    const key = `pg_${randomBytes(24).toString('base64url')}`;
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'shared.db')}`,
      REDIS_URL,
      PAGEGRADE_ADMIN_KEY: key,
      PAGEGRADE_RATE_LIMIT: '5',
    };
    // One after the other, so only one of them migrates the new database.
    const first = await startServer(env);
    const second = await startServer(env);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const origin = i % 2 === 0 ? first : second;
      const response = await fetch(`${origin}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
      statuses.push(response.status);
      if (response.status === 200) expect(response.headers.get('x-ratelimit-limit')).toBe('5');
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});
