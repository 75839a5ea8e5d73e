// Values that are costly to make, kept in this process under keys that say what they were made from
// (the callers put the account's reports version in the key, so a kept value is never asked for again
// once what it was made from has changed). Each value has a cost; the least recently used go first
// when keeping the next one would pass the budget.

export interface KeptValues<Value> {
  /** The value under `key`, made by `make()` when it is not kept. */
  get(key: string, make: () => Promise<Value>): Promise<Value>;
}

/** `cost(key, value)`: what a value uses of `budget`; a value costing more than the whole budget is never kept. */
export function createKeptValues<Value>(budget: number, cost: (key: string, value: Value) => number): KeptValues<Value> {
  const kept = new Map<string, { value: Value; cost: number }>();
  let used = 0;
  const forget = (key: string, entry: { cost: number }) => {
    kept.delete(key);
    used -= entry.cost;
  };

  return {
    async get(key, make) {
      const found = kept.get(key);
      if (found !== undefined) {
        // Re-inserting keeps the map in least-recently-used order for eviction.
        kept.delete(key);
        kept.set(key, found);
        return found.value;
      }
      const value = await make();
      const entry = { value, cost: cost(key, value) };
      // Two requests may make the same value at once; the second replaces the first.
      const replaced = kept.get(key);
      if (replaced !== undefined) forget(key, replaced);
      if (entry.cost > budget) return value;
      for (const [oldest, old] of kept) {
        if (used + entry.cost <= budget) break;
        forget(oldest, old);
      }
      kept.set(key, entry);
      used += entry.cost;
      return value;
    },
  };
}
