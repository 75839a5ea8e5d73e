// A list page with the list's total. A page with fewer items than were asked for is the list's last,
// so its total is everything before it plus its own items, and counting the list again would only
// repeat what the page read; only a full page, or an empty one past the first (the list may end
// anywhere before it), needs the count.
//
// Why: most filtered lists, and most accounts' project lists, fit on their first page. At a million
// reports the count of a filtered list (the project row's tally) was 4% of the request on SQLite and
// a whole query, with its round trip, on PostgreSQL.
import type { JoinedItems } from '../repositories/joined-items-json.ts';

/** Where a page starts in its list and how many items it may hold. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** The items of a page read as rows, or already joined into one JSON text. */
export type PageItems = readonly unknown[] | JoinedItems;

/** The window of page `page` (from 1) of `perPage` items. */
export function pageWindow(page: number, perPage: number): PageWindow {
  return { limit: perPage, offset: (page - 1) * perPage };
}

export function itemCount(items: PageItems): number {
  return Array.isArray(items) ? items.length : (items as JoinedItems).count;
}

/** The list's total as the page tells it; undefined when only counting the list can tell. */
export function totalFromPage(window: PageWindow, items: number): number | undefined {
  if (items >= window.limit) return undefined;
  if (items === 0 && window.offset > 0) return undefined;
  return window.offset + items;
}

/** The page, then its total: from the page where it tells it, else from `countAll`. */
export async function pageAndTotal<Items extends PageItems>(
  window: PageWindow,
  readPage: () => Promise<Items>,
  countAll: () => Promise<number>,
): Promise<{ items: Items; total: number }> {
  const items = await readPage();
  const total = totalFromPage(window, itemCount(items)) ?? (await countAll());
  return { items, total };
}
