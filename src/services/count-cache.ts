// Counts that are costly to make, kept in this process under a key that includes the account's report
// counts version (report-counts-version.ts): once the version moves, old entries are never asked for
// again and age out. Least recently used entries go first when the cache is full.

/** About 100 bytes each: at most a few MB, far more entries than accounts times searches in use. */
const MAX_ENTRIES = 20_000;

export interface CountCache {
  /** The count under `key`, made by `count()` when it is not kept yet. */
  get(key: string, count: () => Promise<number>): Promise<number>;
}

export function createCountCache(maxEntries = MAX_ENTRIES): CountCache {
  const counts = new Map<string, number>();
  return {
    async get(key, count) {
      const kept = counts.get(key);
      if (kept !== undefined) {
        // Re-inserting keeps the map in least-recently-used order for eviction.
        counts.delete(key);
        counts.set(key, kept);
        return kept;
      }
      const made = await count();
      if (counts.size >= maxEntries) counts.delete(counts.keys().next().value as string);
      counts.set(key, made);
      return made;
    },
  };
}
