// Pages of the API's report and project lists, kept in this process as the JSON text of their items
// under a key that includes the account's reports version (reports-version.ts). The version moves in
// every transaction that changes the account's reports or projects, and requests read it with their
// API key before anything else, so a kept page is answered only while nothing it shows has changed,
// whichever server process made the change. A page made while the version moved on is kept under the
// older version it was asked for: it is at least as new as that version, and once requests see the new
// version they never ask for it again; it ages out. Least recently used pages go first when full.
//
// Why: a default list request spends about 420 µs in the server at a million reports, 180 of them
// reading its page of 100 stored items and their count (profiled, session 5), and lists are read far
// more often than an account's reports change (dashboards and tools poll them); a kept page costs a
// map lookup.

export interface ListPageItems {
  /** the page's items as JSON text, joined by commas: what goes between the envelope's brackets */
  itemsJson: string;
  itemCount: number;
  /** how many items match, on every page */
  total: number;
}

export interface ListPageCache {
  /** The items under `key`, made by `make()` when they are not kept. */
  get(key: string, make: () => Promise<ListPageItems>): Promise<ListPageItems>;
}

/** A kept page's cost beyond its text: its key, the record and the map's entry, roughly. */
const ENTRY_OVERHEAD_BYTES = 300;

/** Keeps pages up to about `maxBytes` of text in all (a character counted as a byte); 0 keeps none. */
export function createListPageCache(maxBytes: number): ListPageCache {
  const pages = new Map<string, ListPageItems>();
  let bytes = 0;
  const cost = (key: string, items: ListPageItems) => key.length + items.itemsJson.length + ENTRY_OVERHEAD_BYTES;

  return {
    async get(key, make) {
      const kept = pages.get(key);
      if (kept !== undefined) {
        // Re-inserting keeps the map in least-recently-used order for eviction.
        pages.delete(key);
        pages.set(key, kept);
        return kept;
      }
      const made = await make();
      const size = cost(key, made);
      // Two requests may make the same page at once; the second replaces the first.
      const replaced = pages.get(key);
      if (replaced !== undefined) {
        pages.delete(key);
        bytes -= cost(key, replaced);
      }
      if (size > maxBytes) return made;
      for (const [oldest, items] of pages) {
        if (bytes + size <= maxBytes) break;
        pages.delete(oldest);
        bytes -= cost(oldest, items);
      }
      pages.set(key, made);
      bytes += size;
      return made;
    },
  };
}
