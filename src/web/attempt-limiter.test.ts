import { describe, expect, it } from 'vitest';
import { createAttemptLimiter, createMemoryAttemptStore } from './attempt-limiter.ts';

const WINDOW = 15 * 60_000;

function limiterAt(start = 1_000_000, maxKeys?: number) {
  let now = start;
  const limiter = createAttemptLimiter(createMemoryAttemptStore(maxKeys), { maxFailures: 5, windowMs: WINDOW }, () => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

describe('attempt limiter', () => {
  it('lets a key try until its fifth failure, then makes it wait for the rest of the window', async () => {
    const { limiter, advance } = limiterAt();
    for (let failure = 1; failure <= 5; failure += 1) {
      expect(await limiter.retryAfterSeconds('r1|ip')).toBe(0);
      expect(await limiter.recordFailure('r1|ip')).toEqual({ remaining: 5 - failure });
    }
    expect(await limiter.retryAfterSeconds('r1|ip')).toBe(WINDOW / 1000);
    advance(60_000);
    expect(await limiter.retryAfterSeconds('r1|ip')).toBe(WINDOW / 1000 - 60);
  });

  it('opens a new window once the old one has closed', async () => {
    const { limiter, advance } = limiterAt();
    for (let failure = 0; failure < 5; failure += 1) await limiter.recordFailure('k');
    advance(WINDOW);
    expect(await limiter.retryAfterSeconds('k')).toBe(0);
    expect(await limiter.recordFailure('k')).toEqual({ remaining: 4 });
  });

  it('keeps keys apart and forgets a key on reset', async () => {
    const { limiter } = limiterAt();
    for (let failure = 0; failure < 5; failure += 1) await limiter.recordFailure('a');
    expect(await limiter.retryAfterSeconds('a')).toBeGreaterThan(0);
    expect(await limiter.retryAfterSeconds('b')).toBe(0);
    await limiter.reset('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('holds at most maxKeys windows, dropping closed ones first and then the oldest', async () => {
    const { limiter, advance } = limiterAt(0, 3);
    await limiter.recordFailure('old');
    advance(WINDOW);
    for (let failure = 0; failure < 5; failure += 1) await limiter.recordFailure('blocked');
    await limiter.recordFailure('x');
    await limiter.recordFailure('y'); // sweeps 'old', which has closed
    expect(await limiter.retryAfterSeconds('blocked')).toBeGreaterThan(0);
    await limiter.recordFailure('z'); // full of open windows: the oldest ('blocked') goes
    expect(await limiter.retryAfterSeconds('blocked')).toBe(0);
    expect(await limiter.recordFailure('z')).toEqual({ remaining: 3 });
  });
});
