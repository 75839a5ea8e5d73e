// Counts tries per key (a report and a client) in a fixed window that opens with the first one; past
// the limit the key must wait for the window to end, and a right answer clears it. A try is counted,
// atomically, before it is judged: counted after the slow password hash, 100 tries sent at once all
// passed the check before any was counted (test/web/unlock-concurrent.test.ts). The counts live behind
// AttemptStore so a shared store (Redis) can replace the in-memory one when several servers answer.

export interface AttemptWindow {
  count: number;
  /** epoch ms when the window closes and the count starts again */
  resetAt: number;
}

export interface AttemptStore {
  /**
   * Adds one to key's open window, opening one of windowMs when none is, and returns the window with
   * this try counted. Atomic: concurrent calls each see a different count.
   */
  increment(key: string, windowMs: number, now: number): Promise<AttemptWindow>;
  delete(key: string): Promise<void>;
}

export interface AttemptLimits {
  maxFailures: number;
  windowMs: number;
}

type AttemptTicket =
  /** Judge this try; `remaining` more may follow in the window if it is wrong. */
  | { allowed: true; remaining: number }
  /** Refused unjudged: the key must wait this long. */
  | { allowed: false; retryAfterSeconds: number };

export interface AttemptLimiter {
  /** Counts a try before it is judged, and says whether it may be. */
  take(key: string): Promise<AttemptTicket>;
  /** A right answer clears the key's tries. */
  reset(key: string): Promise<void>;
}

export function createAttemptLimiter(
  store: AttemptStore,
  limits: AttemptLimits,
  clock: () => number = Date.now,
): AttemptLimiter {
  return {
    async take(key) {
      const now = clock();
      const window = await store.increment(key, limits.windowMs, now);
      if (window.count <= limits.maxFailures) return { allowed: true, remaining: limits.maxFailures - window.count };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
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
    // No await before the count changes: concurrent tries each see their own count.
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
