// Counts that are costly to make (a url search's total must look at every one of the account's
// reports), kept in this process under a key that includes the account's reports version
// (reports-version.ts): once the version moves, old entries are never asked for again and age out.
import { createKeptValues, type KeptValues } from './kept-values.ts';

/** About 100 bytes each: at most a few MB, far more entries than accounts times searches in use. */
const MAX_ENTRIES = 20_000;

export type CountCache = KeptValues<number>;

export function createCountCache(maxEntries = MAX_ENTRIES): CountCache {
  return createKeptValues<number>(maxEntries, () => 1);
}
