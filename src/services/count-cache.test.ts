import { describe, expect, it } from 'vitest';
import { createCountCache } from './count-cache.ts';

describe('count cache', () => {
  it('counts a key once and answers again from memory', async () => {
    const cache = createCountCache();
    let counted = 0;
    const count = async () => ++counted * 10;
    expect(await cache.get('a', count)).toBe(10);
    expect(await cache.get('a', count)).toBe(10);
    expect(await cache.get('b', count)).toBe(20);
    expect(counted).toBe(2);
  });

  it('forgets the least recently used key when full', async () => {
    const cache = createCountCache(2);
    const calls: string[] = [];
    const counter = (key: string) => async () => {
      calls.push(key);
      return key.length;
    };
    await cache.get('a', counter('a'));
    await cache.get('bb', counter('bb'));
    await cache.get('a', counter('a')); // a is now the most recently used
    await cache.get('ccc', counter('ccc')); // evicts bb
    await cache.get('a', counter('a'));
    await cache.get('bb', counter('bb'));
    expect(calls).toEqual(['a', 'bb', 'ccc', 'bb']);
  });

  it('keeps nothing when counting fails', async () => {
    const cache = createCountCache();
    await expect(cache.get('a', async () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await cache.get('a', async () => 7)).toBe(7);
  });
});
