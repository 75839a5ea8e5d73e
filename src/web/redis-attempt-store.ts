// The attempt counts in Redis, so every server process sharing REDIS_URL counts a report's wrong
// passwords from one address together (a client cannot multiply its tries by the number of processes).
// Redis's clock runs the window: the key expires when the window closes.
import type { Redis } from 'ioredis';
import type { AttemptStore, AttemptWindow } from './attempt-limiter.ts';

export const UNLOCK_KEY_PREFIX = 'pagegrade:unlock:';

// One script, so the count and its expiry change together and no key can outlive its window. INCR on
// a missing (or expired) key creates it without an expiry (PTTL -1): that is the failure that opens
// the window, and the only one that sets the expiry, so later failures never push its end back.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

function toWindow(reply: unknown, now: number): AttemptWindow | null {
  if (!Array.isArray(reply)) return null;
  const [count, ttl] = reply.map(Number);
  return { count, resetAt: now + ttl };
}

/** `prefix` namespaces the keys (tests use their own); the store never touches other keys. */
export function createRedisAttemptStore(redis: Redis, prefix = UNLOCK_KEY_PREFIX): AttemptStore {
  return {
    async increment(key, windowMs, now) {
      const window = toWindow(await redis.eval(INCREMENT, 1, prefix + key, windowMs), now);
      if (!window) throw new Error('unexpected reply from the attempt counter script');
      return window;
    },
    async delete(key) {
      await redis.del(prefix + key);
    },
  };
}
