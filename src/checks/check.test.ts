import { describe, expect, it } from 'vitest';
import { capItems, firstDistinct, MAX_ERROR_ITEMS } from './check.ts';

describe('firstDistinct', () => {
  it('gives capItems of the distinct shown items, showing only as many as it keeps', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const shown: number[] = [];
    const show = (i: number) => {
      shown.push(i);
      return `item ${i % 40}`;
    };
    expect(firstDistinct(items, show)).toEqual(capItems([...new Set(items.map((i) => `item ${i % 40}`))]));
    expect(shown).toHaveLength(MAX_ERROR_ITEMS);
    expect(firstDistinct(['a', 'b', 'a', 'c'], (x) => x, 2)).toEqual(['a', 'b']);
    expect(firstDistinct([], String)).toEqual([]);
  });
});
