// Values that are costly to make, kept in this process under keys that say what they were made from
// (the callers put the account's reports version in the key, so a kept value is never asked for again
// once what it was made from has changed). Each value has a cost; the least recently used go first
// when keeping the next one would pass the budget. Optionally a value is kept only on its key's second
// miss (see KeptValuesOptions.secondMissAmong).

export interface KeptValues<Value> {
  /** The value under `key`, made by `make()` when it is not kept. */
  get(key: string, make: () => Promise<Value>): Promise<Value>;
}

export interface KeptValuesOptions {
  /**
   * Keep a value only when its key missed before, among the last this many keys that missed. Keys asked
   * once (a one-off filter, a crawler walking pages) then never push out values that are asked again,
   * and never make the values of a miss-heavy load live long: each kept value is garbage the collector
   * must later find in the old generation, a value that dies at once costs next to nothing.
   */
  secondMissAmong?: number;
}

/** `cost(key, value)`: what a value uses of `budget`; a value costing more than the whole budget is never kept. */
export function createKeptValues<Value>(
  budget: number,
  cost: (key: string, value: Value) => number,
  options: KeptValuesOptions = {},
): KeptValues<Value> {
  const kept = new Map<string, { value: Value; cost: number }>();
  let used = 0;
  const missedOnce = options.secondMissAmong === undefined ? null : new Set<string>();
  /** True when `key` may be kept now: no admission rule, or its second miss among the recent ones. */
  const admit = (key: string): boolean => {
    if (missedOnce === null) return true;
    if (missedOnce.delete(key)) return true;
    missedOnce.add(key);
    // A Set iterates in insertion order: the first key is the one that missed longest ago.
    if (missedOnce.size > options.secondMissAmong!) missedOnce.delete(missedOnce.values().next().value!);
    return false;
  };
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
      if (entry.cost > budget || !admit(key)) return value;
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
