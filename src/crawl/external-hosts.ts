// Politeness towards the hosts a crawl's pages link to (docs/crawls.md, "External links"): at most a
// few requests at once to any one external host from this process, every crawl's link checks
// together. A link check is not crawling, so the limit lives in memory rather than in the database:
// it costs nothing per request and dies with the process.

/** Requests this process sends at once to one external host, all crawls together. */
const EXTERNAL_REQUESTS_PER_HOST = 2;

export interface HostSlots {
  /**
   * Waits for one of the host's slots, first come first served; resolves with its release (safe to
   * call twice). Rejects with the signal's reason when it aborts first.
   */
  acquire(host: string, signal?: AbortSignal): Promise<() => void>;
  /** Slots the host has free now (those waited for count as taken). */
  room(host: string): number;
  /** The hosts with no slot free now: a claim leaves their URLs to others. */
  full(): string[];
}

interface HostState {
  active: number;
  waiting: (() => void)[];
}

export function createHostSlots(perHost: number): HostSlots {
  // Only hosts with a request in flight or waited for have an entry: the map stays as small as the work.
  const hosts = new Map<string, HostState>();

  function release(host: string, state: HostState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = state.waiting.shift();
      if (next !== undefined) return next();
      state.active--;
      if (state.active === 0) hosts.delete(host);
    };
  }

  return {
    acquire(host, signal) {
      let state = hosts.get(host);
      if (state === undefined) {
        state = { active: 0, waiting: [] };
        hosts.set(host, state);
      }
      const own = state;
      if (own.active < perHost) {
        own.active++;
        return Promise.resolve(release(host, own));
      }
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise((resolve, reject) => {
        // A slot handed over keeps `active` as it is: the releaser's slot becomes this one.
        const granted = () => {
          signal?.removeEventListener('abort', aborted);
          resolve(release(host, own));
        };
        const aborted = () => {
          const at = own.waiting.indexOf(granted);
          if (at >= 0) own.waiting.splice(at, 1);
          reject(signal?.reason);
        };
        own.waiting.push(granted);
        signal?.addEventListener('abort', aborted, { once: true });
      });
    },
    room(host) {
      const state = hosts.get(host);
      return state === undefined ? perHost : Math.max(0, perHost - state.active - state.waiting.length);
    },
    full() {
      return [...hosts].filter(([, state]) => state.active + state.waiting.length >= perHost).map(([host]) => host);
    },
  };
}

/** This process's slots for external hosts: every crawl's link checks share them. */
export const externalHosts: HostSlots = createHostSlots(EXTERNAL_REQUESTS_PER_HOST);
