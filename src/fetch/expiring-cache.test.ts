import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExpiringCache } from './expiring-cache.ts';

describe('ExpiringCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('creates a value once and shares it until it expires', () => {
    vi.useFakeTimers();
    const cache = new ExpiringCache<number>(1000, 10);
    let created = 0;
    const create = () => ++created;
    expect(cache.getOrCreate('a', create)).toBe(1);
    expect(cache.getOrCreate('a', create)).toBe(1);
    vi.advanceTimersByTime(1001);
    expect(cache.getOrCreate('a', create)).toBe(2);
  });

  it('forgets the oldest entry beyond its size', () => {
    const cache = new ExpiringCache<string>(60_000, 2);
    cache.getOrCreate('a', () => 'first a');
    cache.getOrCreate('b', () => 'b');
    cache.getOrCreate('c', () => 'c');
    expect(cache.getOrCreate('a', () => 'second a')).toBe('second a');
    expect(cache.getOrCreate('c', () => 'new c')).toBe('c');
  });

  it('forgets everything on clear', () => {
    const cache = new ExpiringCache<string>(60_000, 2);
    cache.getOrCreate('a', () => 'first');
    cache.clear();
    expect(cache.getOrCreate('a', () => 'second')).toBe('second');
  });
});
