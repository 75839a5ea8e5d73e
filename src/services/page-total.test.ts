import { describe, expect, it } from 'vitest';
import { itemCount, pageAndTotal, pageWindow, totalFromPage } from './page-total.ts';

describe('a page tells its list total', () => {
  it('a short page is the last: everything before it plus its items', () => {
    expect(totalFromPage({ limit: 100, offset: 0 }, 65)).toBe(65);
    expect(totalFromPage({ limit: 10, offset: 20 }, 3)).toBe(23);
  });

  it('an empty first page is an empty list', () => {
    expect(totalFromPage({ limit: 10, offset: 0 }, 0)).toBe(0);
  });

  it('a full page, or an empty one past the first, does not tell', () => {
    expect(totalFromPage({ limit: 10, offset: 0 }, 10)).toBeUndefined();
    expect(totalFromPage({ limit: 10, offset: 30 }, 10)).toBeUndefined();
    expect(totalFromPage({ limit: 10, offset: 30 }, 0)).toBeUndefined();
  });

  it('page n of k items starts after the first n - 1 pages', () => {
    expect(pageWindow(1, 25)).toEqual({ limit: 25, offset: 0 });
    expect(pageWindow(3, 10)).toEqual({ limit: 10, offset: 20 });
  });

  it('counts rows or a joined page', () => {
    expect(itemCount(['a', 'b'])).toBe(2);
    expect(itemCount({ count: 3, json: '1,2,3' })).toBe(3);
  });

  it('counts the list only when the page does not tell', async () => {
    let counted = 0;
    const countAll = async () => {
      counted += 1;
      return 42;
    };
    const short = await pageAndTotal({ limit: 10, offset: 10 }, async () => ['x', 'y'], countAll);
    expect(short).toEqual({ items: ['x', 'y'], total: 12 });
    expect(counted).toBe(0);
    const full = await pageAndTotal({ limit: 2, offset: 0 }, async () => ['x', 'y'], countAll);
    expect(full.total).toBe(42);
    const pastTheEnd = await pageAndTotal({ limit: 2, offset: 60 }, async () => [], countAll);
    expect(pastTheEnd.total).toBe(42);
    expect(counted).toBe(2);
  });
});
