import { describe, expect, it, vi } from 'vitest';
import { createKeptValues } from './kept-values.ts';

/** Values cost their length here. */
const byLength = (_key: string, value: string) => value.length;

describe('kept values', () => {
  it('makes a value once and answers it again from memory', async () => {
    const kept = createKeptValues(1_000, byLength);
    const make = vi.fn(async () => 'aaaa');
    expect(await kept.get('a', make)).toBe('aaaa');
    expect(await kept.get('a', make)).toBe('aaaa');
    expect(make).toHaveBeenCalledTimes(1);
    const other = vi.fn(async () => 'bbbb');
    expect(await kept.get('b', other)).toBe('bbbb');
    expect(other).toHaveBeenCalledTimes(1);
  });

  it('lets the least recently used values go when the next one would pass the budget', async () => {
    const kept = createKeptValues(300, byLength);
    for (const key of ['a', 'b', 'c']) await kept.get(key, async () => 'x'.repeat(100));
    await kept.get('a', async () => 'unused'); // a is now the most recently used
    await kept.get('d', async () => 'x'.repeat(100)); // b goes
    const made: string[] = [];
    for (const key of ['a', 'c', 'd', 'b']) await kept.get(key, async () => (made.push(key), 'x'.repeat(100)));
    expect(made).toEqual(['b']);
  });

  it('keeps nothing with no budget, and never a value costing more than the whole budget', async () => {
    const none = createKeptValues(0, byLength);
    const make = vi.fn(async () => 'a');
    await none.get('a', make);
    await none.get('a', make);
    expect(make).toHaveBeenCalledTimes(2);

    const small = createKeptValues(100, byLength);
    await small.get('a', async () => 'x'.repeat(100));
    const huge = vi.fn(async () => 'x'.repeat(101));
    expect(await small.get('b', huge)).toHaveLength(101);
    await small.get('b', huge);
    expect(huge).toHaveBeenCalledTimes(2);
    // ...and trying did not push out what fits.
    const again = vi.fn(async () => 'x'.repeat(100));
    await small.get('a', again);
    expect(again).not.toHaveBeenCalled();
  });

  it('counts a value made twice at once only once against the budget', async () => {
    const kept = createKeptValues(200, byLength);
    await Promise.all([kept.get('a', async () => 'x'.repeat(100)), kept.get('a', async () => 'x'.repeat(100))]);
    await kept.get('b', async () => 'x'.repeat(100));
    const made: string[] = [];
    for (const key of ['a', 'b']) await kept.get(key, async () => (made.push(key), 'x'.repeat(100)));
    expect(made).toEqual([]);
  });

  it('keeps nothing when making fails, and makes it again next time', async () => {
    const kept = createKeptValues(1_000, byLength);
    await expect(kept.get('a', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await kept.get('a', async () => 'made')).toBe('made');
  });
});

describe('kept values kept on their second miss', () => {
  it('keeps a value only when its key missed before, among the last keys that missed', async () => {
    const kept = createKeptValues(10_000, byLength, { secondMissAmong: 2 });
    const made: string[] = [];
    const get = (key: string) => kept.get(key, async () => (made.push(key), key));
    await get('a'); // first miss: remembered, not kept
    await get('a'); // second miss: kept
    await get('a'); // answered from memory
    expect(made).toEqual(['a', 'a']);

    made.length = 0;
    await get('b');
    await get('c');
    await get('d'); // b is no longer among the last two keys that missed
    await get('b'); // so this is a first miss again
    await get('b'); // and this one keeps it
    await get('b');
    expect(made).toEqual(['b', 'c', 'd', 'b', 'b']);
  });

  it('does not remember a key whose value was too costly to keep', async () => {
    const kept = createKeptValues(10, byLength, { secondMissAmong: 10 });
    const huge = vi.fn(async () => 'x'.repeat(11));
    for (let i = 0; i < 3; i++) await kept.get('a', huge);
    expect(huge).toHaveBeenCalledTimes(3);
    const small = vi.fn(async () => 'x');
    for (let i = 0; i < 3; i++) await kept.get('b', small);
    expect(small).toHaveBeenCalledTimes(2);
  });
});
