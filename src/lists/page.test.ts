import { describe, expect, it } from 'vitest';
import { pageWindow, readAllRows, readPage, totalFromPage } from './page.ts';

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

  it('reads the window of the page and counts the list only when the page does not tell', async () => {
    let counted = 0;
    const countAll = async () => {
      counted += 1;
      return 42;
    };
    const windows: unknown[] = [];
    const short = await readPage(2, 10, async (window) => (windows.push(window), ['x', 'y']), countAll);
    expect(short).toEqual({ items: ['x', 'y'], total: 12, page: 2, perPage: 10 });
    expect(windows).toEqual([{ limit: 10, offset: 10 }]);
    expect(counted).toBe(0);
    const full = await readPage(1, 2, async () => ['x', 'y'], countAll);
    expect(full.total).toBe(42);
    const pastTheEnd = await readPage(31, 2, async () => [], countAll);
    expect(pastTheEnd.total).toBe(42);
    expect(counted).toBe(2);
  });
});

describe('a list read whole', () => {
  it('reads batch after batch, each after the last row of the one before, until one comes short', async () => {
    const list = [1, 2, 3, 4, 5, 6];
    const reads: [number, number | undefined][] = [];
    const readBatch = async (limit: number, after?: number) => {
      reads.push([limit, after]);
      const start = after === undefined ? 0 : list.indexOf(after) + 1;
      return list.slice(start, start + limit);
    };
    const items: string[] = [];
    for await (const item of readAllRows(3, readBatch, (row) => `#${row}`)) items.push(item);
    expect(items).toEqual(['#1', '#2', '#3', '#4', '#5', '#6']);
    // A last batch that came full may have more after it: one more read finds none.
    expect(reads).toEqual([[3, undefined], [3, 3], [3, 6]]);
  });
});
