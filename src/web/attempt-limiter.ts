// Counts wrong answers per key (a report and a client) in a fixed window that opens with the first
// one; at the limit the key must wait for the window to end. The counts live behind AttemptStore so a
// shared store (Redis) can replace the in-memory one when several servers answer.

export interface AttemptWindow {
  count: number;
  /** epoch ms when the window closes and the count starts again */
  resetAt: number;
}

export interface AttemptStore {
  /** The open window for key, or null when none is open at `now`. */
  get(key: string, now: number): Promise<AttemptWindow | null>;
  /** Adds one to key's open window, opening one of windowMs when none is. */
  increment(key: string, windowMs: number, now: number): Promise<AttemptWindow>;
  delete(key: string): Promise<void>;
}

export interface AttemptLimits {
  maxFailures: number;
  windowMs: number;
}

export interface AttemptLimiter {
  /** Seconds the key must still wait, or 0 when it may try. */
  retryAfterSeconds(key: string): Promise<number>;
  /** Records a wrong answer; returns how many remain before the key must wait. */
  recordFailure(key: string): Promise<{ remaining: number }>;
  /** A right answer clears the key's failures. */
  reset(key: string): Promise<void>;
}

export function createAttemptLimiter(
  store: AttemptStore,
  limits: AttemptLimits,
  clock: () => number = Date.now,
): AttemptLimiter {
  return {
    async retryAfterSeconds(key) {
      const now = clock();
      const window = await store.get(key, now);
      if (!window || window.count < limits.maxFailures) return 0;
      return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
    },
    async recordFailure(key) {
      const window = await store.increment(key, limits.windowMs, clock());
      return { remaining: Math.max(0, limits.maxFailures - window.count) };
    },
    reset: (key) => store.delete(key),
  };
}

/**
 * One process's memory. At most maxKeys windows are kept: closed ones are swept first, then the
 * oldest, so a client spraying keys cannot grow it without bound.
 */
export function createMemoryAttemptStore(maxKeys = 100_000): AttemptStore {
  const windows = new Map<string, AttemptWindow>();

  function sweep(now: number): void {
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  }

  return {
    async get(key, now) {
      const window = windows.get(key);
      return window && window.resetAt > now ? { ...window } : null;
    },
    async increment(key, windowMs, now) {
      const open = windows.get(key);
      if (open && open.resetAt > now) {
        open.count += 1;
        return { ...open };
      }
      windows.delete(key);
      if (windows.size >= maxKeys) sweep(now);
      const window = { count: 1, resetAt: now + windowMs };
      windows.set(key, window);
      return { ...window };
    },
    async delete(key) {
      windows.delete(key);
    },
  };
}
