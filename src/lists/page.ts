// A list page with the list's total. A page with fewer items than were asked for is the list's last,
// so its total is everything before it plus its own items, and counting the list again would only
// repeat what the page read; only a full page, or an empty one past the first (the list may end
// anywhere before it), needs the count. Most filtered lists, and most accounts' project lists, fit on
// their first page, so most list requests are one query instead of two.
import type { Page } from '../services/types.ts';

/** Where a page starts in its list and how many items it may hold. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** The window of page `page` (from 1) of `perPage` items. */
export function pageWindow(page: number, perPage: number): PageWindow {
  return { limit: perPage, offset: (page - 1) * perPage };
}

/** The list's total as the page tells it; undefined when only counting the list can tell. */
export function totalFromPage(window: PageWindow, items: number): number | undefined {
  if (items >= window.limit) return undefined;
  if (items === 0 && window.offset > 0) return undefined;
  return window.offset + items;
}

/** Page `page` of `perPage` items, read by `readItems`, with its total (from `countAll` only when needed). */
export async function readPage<T>(
  page: number,
  perPage: number,
  readItems: (window: PageWindow) => Promise<T[]>,
  countAll: () => Promise<number>,
): Promise<Page<T>> {
  const window = pageWindow(page, perPage);
  const items = await readItems(window);
  const total = totalFromPage(window, items.length) ?? (await countAll());
  return { items, total, page, perPage };
}

/**
 * Every row of a list, `batchSize` at a time, as the caller consumes them: `readBatch` reads the rows
 * after `after` (the previous batch's last row; none: from the start), each batch its own statement
 * seeking past `after` in the sort's index, so a list of any length is one index walk and memory holds
 * one batch whatever its length.
 */
export async function* readAllRows<Row, Item>(
  batchSize: number,
  readBatch: (limit: number, after: Row | undefined) => Promise<Row[]>,
  toItem: (row: NoInfer<Row>) => Item,
): AsyncGenerator<Item> {
  let after: Row | undefined;
  for (;;) {
    const rows = await readBatch(batchSize, after);
    for (const row of rows) yield toItem(row);
    if (rows.length < batchSize) return;
    after = rows.at(-1);
  }
}
