// The crawl-start requests (robots.txt, sitemap files on the host, the origin probes) held to the
// host's bounds as pages are (docs/crawls.md, "Bounds"): while they run, the crawl holds a start lease
// that counts as one request in flight on the host for every claim; each request takes the host's turn
// (Crawl-delay, once robots.txt is read) and is counted against the crawl's request budget first.
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

export interface StartRequests {
  /** The AuxContext hook: before every HTTP request (each redirect hop too). */
  onRequest(url: URL): Promise<void>;
  /** robots.txt was read: its Crawl-delay spaces every later request, the next one included. */
  obeyDelay(delayMs: number): Promise<void>;
  /** The start is over (or failed): its lease no longer counts on the host. */
  release(): Promise<void>;
}

export interface StartRequestSettings {
  concurrency: number;
  /** how long the lease holds without a request renewing it (a dead process's runs out) */
  leaseMs: number;
  signal: AbortSignal;
}

const starting = (counters: crawlRepository.CrawlCounters | undefined) => counters?.state === 'queued' || counters?.state === 'running';

/**
 * Waits for a free slot on the crawl's host, takes the start lease, and returns the requests' hook;
 * undefined when the crawl ended meanwhile (cancelled, deleted).
 */
export async function beginStartRequests(db: Kysely<Database>, crawl: CrawlRow, settings: StartRequestSettings): Promise<StartRequests | undefined> {
  const host = crawl.project;
  const leaseUntil = () => new Date(Date.now() + settings.leaseMs).toISOString();
  await hostRepository.addHost(db, host, new Date().toISOString());
  for (;;) {
    const taken = await db.transaction().execute(async (trx) => {
      if (!starting(await crawlRepository.lockCrawl(trx, crawl.id))) return 'ended';
      // Takes the host's row (no turn moved: next_fetch_at stays), so two starts never both see a free slot.
      await trx.updateTable('crawl_hosts').set((eb) => ({ next_fetch_at: eb.ref('next_fetch_at') })).where('host', '=', host).execute();
      const inFlight = await hostRepository.inFlightOnHost(trx, host, crawl.id, new Date().toISOString());
      if (inFlight.onHost >= settings.concurrency) return false;
      await hostRepository.holdStartLease(trx, crawl.id, leaseUntil());
      return true;
    });
    if (taken === 'ended') return undefined;
    if (taken) break;
    await wait(SLOT_POLL_MS, settings.signal);
  }

  let delayMs = 0;
  let lastTurnAt = Date.now();
  return {
    async onRequest(url: URL) {
      // Sitemap files elsewhere (a CDN) are not the crawled host's requests.
      if (url.host !== host) return;
      for (;;) {
        if (settings.signal.aborted) throw settings.signal.reason;
        const now = new Date();
        const retryAt = await db.transaction().execute(async (trx) => {
          const counters = await crawlRepository.lockCrawl(trx, crawl.id);
          if (!starting(counters)) return 'ended';
          if (counters!.requests >= crawlRepository.maxRequestsOf(crawl)) return 'spent';
          const turn = await hostRepository.takeHostTurn(trx, host, now.toISOString(), delayMs);
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
          lastTurnAt = now.getTime();
          return;
        }
        await wait(Math.max(Date.parse(retryAt) - Date.now(), 1), settings.signal);
      }
    },
    async obeyDelay(ms: number) {
      delayMs = ms;
      if (ms > 0) await hostRepository.deferHost(db, host, new Date(lastTurnAt + ms).toISOString());
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
