import { describe, expect, it } from 'vitest';
import { createAttemptLimiter, createMemoryAttemptStore } from './attempt-limiter.ts';

const WINDOW = 15 * 60_000;

function limiterAt(start = 1_000_000, maxKeys?: number) {
  let now = start;
  const limiter = createAttemptLimiter(createMemoryAttemptStore(maxKeys), { maxFailures: 5, windowMs: WINDOW }, () => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

const refused = (seconds: number) => ({ allowed: false, retryAfterSeconds: seconds });

describe('attempt limiter', () => {
  it('lets a key try five times, then makes it wait for the rest of the window', async () => {
    const { limiter, advance } = limiterAt();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect(await limiter.take('r1|ip')).toEqual({ allowed: true, remaining: 5 - attempt });
    }
    expect(await limiter.take('r1|ip')).toEqual(refused(WINDOW / 1000));
    advance(60_000);
    expect(await limiter.take('r1|ip')).toEqual(refused(WINDOW / 1000 - 60));
  });

  it('counts tries taken at once each on its own: five of a hundred are allowed', async () => {
    const { limiter } = limiterAt();
    const tickets = await Promise.all(Array.from({ length: 100 }, () => limiter.take('r2|ip')));
    expect(tickets.filter((ticket) => ticket.allowed)).toHaveLength(5);
  });

  it('opens a new window once the old one has closed', async () => {
    const { limiter, advance } = limiterAt();
    for (let attempt = 0; attempt < 6; attempt += 1) await limiter.take('k');
    advance(WINDOW);
    expect(await limiter.take('k')).toEqual({ allowed: true, remaining: 4 });
  });

  it('keeps keys apart and forgets a key on reset', async () => {
    const { limiter } = limiterAt();
    for (let attempt = 0; attempt < 5; attempt += 1) await limiter.take('a');
    expect((await limiter.take('a')).allowed).toBe(false);
    expect((await limiter.take('b')).allowed).toBe(true);
    await limiter.reset('a');
    expect(await limiter.take('a')).toEqual({ allowed: true, remaining: 4 });
  });

  it('holds at most maxKeys windows, dropping closed ones first and then the oldest', async () => {
    const { limiter, advance } = limiterAt(0, 3);
    await limiter.take('old');
    advance(WINDOW);
    for (let attempt = 0; attempt < 5; attempt += 1) await limiter.take('blocked');
    await limiter.take('x');
    await limiter.take('y'); // sweeps 'old', which has closed
    expect((await limiter.take('blocked')).allowed).toBe(false);
    await limiter.take('z'); // full of open windows: the oldest ('blocked') goes
    expect(await limiter.take('blocked')).toEqual({ allowed: true, remaining: 4 });
    expect(await limiter.take('z')).toEqual({ allowed: true, remaining: 3 });
  });
});
