// The crawl-start requests (robots.txt, sitemap files on the host, the origin probes) held to the
// host's bounds as pages are (docs/crawls.md, "Bounds"): while they run, the crawl holds a start lease
// that counts as one request in flight on the host for every claim; each request takes the host's turn
// (Crawl-delay, once robots.txt is read) and is counted against the crawl's request budget first.
// A list crawl (docs/crawls.md, "List mode") asks each of its hosts in turn, one request at a time: its
// lease counts one on every one of them, and before its first request to a host it waits until the
// others' requests there leave a slot.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as hostRepository from '../repositories/crawl-host.repository.ts';

/** Waiting for the host: how often the start looks again when its slots are all taken. */
const SLOT_POLL_MS = 100;

class RequestBudgetSpent extends Error {
  constructor() {
    super('The crawl has sent the host as many requests as it may (2 × max_pages + 50).');
  }
}

/** Whether a start request was refused because the crawl's request budget is spent. */
export const isBudgetSpent = (error: unknown): boolean => error instanceof RequestBudgetSpent;

export interface StartRequests {
  /**
   * The AuxContext hook: before every HTTP request (each redirect hop too); `signal`: the deadline of
   * the waits for the host's slot and turn (the start's, unless given).
   */
  onRequest(url: URL, signal?: AbortSignal): Promise<void>;
  /** robots.txt of `host` (the first host unless given) was read: its Crawl-delay spaces every later request there, the next one included. */
  obeyDelay(delayMs: number, host?: string): Promise<void>;
  /** The start is over (or failed): its lease no longer counts on the host. */
  release(): Promise<void>;
}

export interface StartRequestSettings {
  concurrency: number;
  /** how long the lease holds without a request renewing it (a dead process's runs out) */
  leaseMs: number;
  signal: AbortSignal;
  /** the hosts whose requests these are (a list crawl's listed hosts); default the crawl's project */
  hosts?: readonly string[];
}

const starting = (counters: crawlRepository.CrawlCounters | undefined) => counters?.state === 'queued' || counters?.state === 'running';

/**
 * Waits for a free slot on the crawl's (first) host, takes the start lease, and returns the requests'
 * hook; undefined when the crawl ended meanwhile (cancelled, deleted).
 */
export async function beginStartRequests(db: Kysely<Database>, crawl: CrawlRow, settings: StartRequestSettings): Promise<StartRequests | undefined> {
  const hosts = settings.hosts ?? [crawl.project];
  const ours = new Set(hosts);
  const leaseUntil = () => new Date(Date.now() + settings.leaseMs).toISOString();
  await hostRepository.addHosts(db, hosts, new Date().toISOString());

  /** Waits until the other requests on `host` leave a slot, holding (or renewing) the lease; false when the crawl ended. */
  async function takeSlot(host: string, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const taken = await db.transaction().execute(async (trx) => {
        if (!starting(await crawlRepository.lockCrawl(trx, crawl.id))) return 'ended';
        // Takes the host's row (no turn moved: next_fetch_at stays), so two starts never both see a free slot.
        await hostRepository.lockHostTurn(trx, host);
        const inFlight = await hostRepository.inFlightOnHost(trx, host, crawl.id, new Date().toISOString());
        if (inFlight.onHost >= settings.concurrency) return false;
        await hostRepository.holdStartLease(trx, crawl.id, leaseUntil());
        return true;
      });
      if (taken === 'ended') return false;
      if (taken) return true;
      await wait(SLOT_POLL_MS, signal);
    }
  }

  if (!(await takeSlot(hosts[0], settings.signal))) return undefined;
  // The host whose slot the start holds: it sends one request at a time, so one host's at a time.
  let slotHost = hosts[0];
  const delays = new Map<string, number>();
  const lastTurnAt = new Map<string, number>();
  return {
    async onRequest(url: URL, signal = settings.signal) {
      // Sitemap files elsewhere (a CDN) are not the crawled host's requests.
      const host = url.host;
      if (!ours.has(host)) return;
      if (host !== slotHost) {
        if (!(await takeSlot(host, signal))) throw new Error('The crawl ended while it was starting.');
        slotHost = host;
      }
      for (;;) {
        if (signal.aborted) throw signal.reason;
        const now = new Date();
        const retryAt = await db.transaction().execute(async (trx) => {
          const counters = await crawlRepository.lockCrawl(trx, crawl.id);
          if (!starting(counters)) return 'ended';
          if (counters!.requests >= crawlRepository.maxRequestsOf(crawl)) return 'spent';
          const turn = await hostRepository.takeHostTurn(trx, host, now.toISOString(), delays.get(host) ?? 0);
          if (turn !== null) return turn;
          await crawlRepository.countOnCrawl(trx, crawl.id, { requests: 1 });
          await hostRepository.holdStartLease(trx, crawl.id, leaseUntil());
          return null;
        });
        if (retryAt === 'ended') throw new Error('The crawl ended while it was starting.');
        if (retryAt === 'spent') {
          await crawlRepository.countOnCrawl(db, crawl.id, { limitReached: true });
          throw new RequestBudgetSpent();
        }
        if (retryAt === null) {
          lastTurnAt.set(host, now.getTime());
          return;
        }
        await wait(Math.max(Date.parse(retryAt) - Date.now(), 1), signal);
      }
    },
    async obeyDelay(ms: number, host = hosts[0]) {
      // A host of two origins (http and https) obeys the longer of their delays.
      const delayMs = Math.max(ms, delays.get(host) ?? 0);
      delays.set(host, delayMs);
      if (delayMs > 0) await hostRepository.deferHost(db, host, new Date((lastTurnAt.get(host) ?? Date.now()) + delayMs).toISOString());
    },
    async release() {
      await hostRepository.holdStartLease(db, crawl.id, null);
    },
  };
}

/** Sleeps `ms`, or less when `signal` aborts (the caller then sees it aborted). */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
