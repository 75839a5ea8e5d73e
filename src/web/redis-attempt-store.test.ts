// The Redis attempt store against a real Redis: two stores on two connections stand for two server
// processes. Skipped without Redis, unless PAGEGRADE_REQUIRE_REDIS=1.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedisAvailable } from '../../test/support/redis.ts';
import { createAttemptLimiter, type AttemptLimits } from './attempt-limiter.ts';
import { createRedisAttemptStore, UNLOCK_KEY_PREFIX } from './redis-attempt-store.ts';

const available = await testRedisAvailable();
// Keys of this run only, so runs sharing a Redis cannot see each other's counts.
const prefix = `pagegrade-test:${randomBytes(8).toString('hex')}:unlock:`;
const FIFTEEN_MINUTES: AttemptLimits = { maxFailures: 5, windowMs: 15 * 60_000 };

describe.skipIf(!available)('Redis attempt store', () => {
  let first: Redis;
  let second: Redis;

  beforeAll(() => {
    first = new Redis(TEST_REDIS_URL);
    second = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    const keys = await first.keys(`${prefix}*`);
    if (keys.length > 0) await first.del(...keys);
    await Promise.all([first.quit(), second.quit()]);
  });

  /** Two limiters on separate connections, as two server processes would have. */
  function twoProcesses(limits: AttemptLimits) {
    return [
      createAttemptLimiter(createRedisAttemptStore(first, prefix), limits),
      createAttemptLimiter(createRedisAttemptStore(second, prefix), limits),
    ] as const;
  }

  it('namespaces its keys under pagegrade:unlock: by default', () => {
    expect(UNLOCK_KEY_PREFIX).toBe('pagegrade:unlock:');
  });

  it('counts the tries at one key across two processes', async () => {
    const [a, b] = twoProcesses(FIFTEEN_MINUTES);
    const key = '41|203.0.113.7';
    const tickets = [];
    for (let attempt = 0; attempt < 5; attempt += 1) tickets.push(await (attempt % 2 === 0 ? a : b).take(key));
    expect(tickets).toEqual([4, 3, 2, 1, 0].map((remaining) => ({ allowed: true, remaining })));
    for (const limiter of [a, b]) {
      const ticket = await limiter.take(key);
      expect(ticket.allowed).toBe(false);
      const wait = ticket.allowed ? 0 : ticket.retryAfterSeconds;
      expect(wait).toBeGreaterThan(15 * 60 - 60);
      expect(wait).toBeLessThanOrEqual(15 * 60);
    }
    // Stored under the prefix, and other keys are not held back.
    expect(await first.exists(`${prefix}${key}`)).toBe(1);
    expect((await a.take('41|203.0.113.8')).allowed).toBe(true);
    expect((await b.take('42|203.0.113.7')).allowed).toBe(true);
  });

  it('allows five of a hundred tries taken at once from two processes', async () => {
    const [a, b] = twoProcesses(FIFTEEN_MINUTES);
    const key = '47|203.0.113.9';
    const tickets = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).take(key)));
    expect(tickets.filter((ticket) => ticket.allowed)).toHaveLength(5);
  });

  it('opens the window at the first try: later tries do not push its end back', async () => {
    const store = createRedisAttemptStore(first, prefix);
    const key = '43|198.51.100.1';
    const opened = await store.increment(key, 60_000, Date.now());
    expect(opened.count).toBe(1);
    // Stand-in for 55 s passing: the window has 5 s left when the next try comes.
    await first.pexpire(`${prefix}${key}`, 5_000);
    const now = Date.now();
    const next = await store.increment(key, 60_000, now);
    expect(next.count).toBe(2);
    expect(next.resetAt - now).toBeLessThanOrEqual(5_000);
    expect(await second.pttl(`${prefix}${key}`)).toBeLessThanOrEqual(5_000);
  });

  it('forgets the tries when the window closes, and the next try opens a new one', async () => {
    const [a, b] = twoProcesses({ maxFailures: 2, windowMs: 300 });
    const key = '44|198.51.100.2';
    await a.take(key);
    await b.take(key);
    expect(await a.take(key)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await sleep(400);
    expect(await first.exists(`${prefix}${key}`)).toBe(0);
    expect(await b.take(key)).toEqual({ allowed: true, remaining: 1 });
  });

  it('clears a key on reset from any process, and only that key', async () => {
    const [a, b] = twoProcesses(FIFTEEN_MINUTES);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await a.take('45|192.0.2.1');
      await a.take('45|192.0.2.2');
    }
    await b.reset('45|192.0.2.1');
    expect(await first.exists(`${prefix}45|192.0.2.1`)).toBe(0);
    expect(await a.take('45|192.0.2.1')).toEqual({ allowed: true, remaining: 4 });
    expect((await b.take('45|192.0.2.2')).allowed).toBe(false);
  });
});
