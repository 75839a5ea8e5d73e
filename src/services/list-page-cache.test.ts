import { describe, expect, it, vi } from 'vitest';
import { createListPageCache, type ListPageItems } from './list-page-cache.ts';

/** A page whose text is `chars` long; keys here are one character, so its cost is chars + 1 + 300. */
function page(chars: number, total = 1): ListPageItems {
  return { itemsJson: 'x'.repeat(chars), itemCount: 1, total };
}
const costOf = (chars: number) => chars + 1 + 300;

describe('list page cache', () => {
  it('makes a page once and answers it again from memory', async () => {
    const cache = createListPageCache(1_000_000);
    const make = vi.fn(async () => page(10, 7));
    expect(await cache.get('a', make)).toEqual(page(10, 7));
    expect(await cache.get('a', make)).toEqual(page(10, 7));
    expect(make).toHaveBeenCalledTimes(1);
    const other = vi.fn(async () => page(10, 8));
    expect((await cache.get('b', other)).total).toBe(8);
    expect(other).toHaveBeenCalledTimes(1);
  });

  it('lets the least recently used pages go when the next one would not fit', async () => {
    const cache = createListPageCache(costOf(100) * 3);
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => page(100));
    await cache.get('a', async () => page(100)); // a is now the most recently used
    await cache.get('d', async () => page(100)); // b goes
    const made: string[] = [];
    for (const key of ['a', 'c', 'd', 'b']) await cache.get(key, async () => (made.push(key), page(100)));
    expect(made).toEqual(['b']);
  });

  it('keeps nothing with no budget, and never a page larger than the whole budget', async () => {
    const none = createListPageCache(0);
    const make = vi.fn(async () => page(1));
    await none.get('a', make);
    await none.get('a', make);
    expect(make).toHaveBeenCalledTimes(2);

    const small = createListPageCache(costOf(100));
    await small.get('a', async () => page(100));
    const huge = vi.fn(async () => page(101));
    expect((await small.get('b', huge)).itemsJson).toHaveLength(101);
    await small.get('b', huge);
    expect(huge).toHaveBeenCalledTimes(2);
    // ...and trying did not push out what fits.
    const again = vi.fn(async () => page(100));
    await small.get('a', again);
    expect(again).not.toHaveBeenCalled();
  });

  it('counts a page made twice at once only once against the budget', async () => {
    const cache = createListPageCache(costOf(100) * 2);
    await Promise.all([cache.get('a', async () => page(100)), cache.get('a', async () => page(100))]);
    await cache.get('b', async () => page(100));
    const made: string[] = [];
    for (const key of ['a', 'b']) await cache.get(key, async () => (made.push(key), page(100)));
    expect(made).toEqual([]);
  });
});
