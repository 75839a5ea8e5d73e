import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './fetch-for-crawl.ts';

describe('Retry-After as a crawl waits for it', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');

  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 2 ', now)).toBe(2000);
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:10 GMT', now)).toBe(10_000);
  });

  it('waits at least a second and at most a minute', () => {
    expect(retryAfterMs('0', now)).toBe(1000);
    expect(retryAfterMs('Thu, 26 Nov 2026 11:00:00 GMT', now)).toBe(1000);
    expect(retryAfterMs('86400', now)).toBe(60_000);
  });

  it('waits five seconds when the header is missing or unreadable', () => {
    expect(retryAfterMs(undefined, now)).toBe(5000);
    expect(retryAfterMs('soon', now)).toBe(5000);
  });
});
