// Watches one crawl through the server from outside, three loops at once until it ends: its state
// (GET /api/v1/crawls/{id} every POLL_MS, to see when the last page was stored and when it was done),
// GET /health latency (one request at a time, HEALTH_MS apart: an event loop held up shows as one
// slow answer), and each process's VmRSS (/proc, every RSS_MS, beside the pages crawled so far).
// Requests have no timeout of their own: a server busy for minutes is measured, not abandoned.
import { Agent, request } from 'undici';
import { BENCH_ADMIN_KEY } from './pagegrade-server.ts';
import { rssMb } from './processes.ts';

const POLL_MS = 100;
const HEALTH_MS = 250;
const RSS_MS = 500;
/**
 * A crawl none of whose counters moved for this long, and for half its time so far, has stalled: the
 * finish step of a big crawl moves none for minutes, and one that takes half the crawl is news anyway.
 */
const STALL_MS = 10 * 60_000;
const ENDED = ['done', 'failed', 'cancelled'];

const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

export interface CrawlBody {
  id: number;
  state: string;
  pages_crawled: number;
  pages_found: number;
  pages_failed: number;
  requests?: number;
  [field: string]: unknown;
}

/** One call to the server under test; its connection closes once answered (see CLOSE_CONNECTION). */
export async function callServer<T>(origin: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await request(`${origin}${path}`, {
    method: method as 'GET',
    dispatcher: patient,
    headers: { authorization: `Bearer ${BENCH_ADMIN_KEY}`, connection: 'close', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode >= 400) throw new Error(`${method} ${path} answered ${response.statusCode}: ${text}`);
  return JSON.parse(text) as T;
}

export interface RssSample {
  /** ms since the crawl was posted */
  at_ms: number;
  pages_crawled: number;
  /** per process, in the installation's order */
  rss_mb: number[];
}

export interface HealthSample {
  /** ms since the crawl was posted, when sent */
  at_ms: number;
  latency_ms: number;
  ok: boolean;
}

export interface CrawlWatch {
  crawl: CrawlBody;
  /** ms since the crawl was posted: the poll that first showed the final pages_crawled was sent */
  last_page_seen_ms: number;
  /** ms since the crawl was posted: the poll that first showed the crawl ended answered */
  ended_seen_ms: number;
  polls: number;
  rss: RssSample[];
  health: HealthSample[];
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** `postedAt`: performance.now() as the crawl was posted; `pids`: the processes whose memory to sample. */
export async function watchCrawl(origin: string, crawl: CrawlBody, postedAt: number, pids: number[]): Promise<CrawlWatch> {
  const since = () => performance.now() - postedAt;
  let current = crawl;
  let ended = false;
  const rss: RssSample[] = [];
  const health: HealthSample[] = [];
  const sampleRss = () => {
    try {
      rss.push({ at_ms: Math.round(since()), pages_crawled: current.pages_crawled, rss_mb: pids.map(rssMb) });
    } catch {
      // A process that ended: the poll loop reports the crawl's failure.
    }
  };
  sampleRss();
  const rssTimer = setInterval(sampleRss, RSS_MS);
  const healthLoop = (async () => {
    while (!ended) {
      const sentAt = since();
      // A 503 (the database did not answer in time) is a sample too, and counted.
      const ok = await callServer(origin, 'GET', '/health').then(() => true, () => false);
      health.push({ at_ms: Math.round(sentAt), latency_ms: Math.round((since() - sentAt) * 10) / 10, ok });
      await sleep(HEALTH_MS);
    }
  })();
  let lastPageSeen = 0;
  let endedSeen = 0;
  let polls = 0;
  try {
    let lastMove = since();
    const counters = (body: CrawlBody) => `${body.state} ${body.pages_crawled} ${body.pages_failed} ${body.pages_found} ${body.requests ?? ''}`;
    while (!ENDED.includes(current.state)) {
      await sleep(POLL_MS);
      const sentAt = since();
      const { data: next } = await callServer<{ data: CrawlBody }>(origin, 'GET', `/api/v1/crawls/${crawl.id}`);
      polls++;
      if (next.pages_crawled !== current.pages_crawled) lastPageSeen = sentAt;
      if (counters(next) !== counters(current)) lastMove = since();
      current = next;
      const still = since() - lastMove;
      if (still > STALL_MS && still > since() / 2) throw new Error(`crawl stalled: no counter moved for ${Math.round(still / 1000)} s: ${JSON.stringify(current)}`);
    }
    endedSeen = since();
    sampleRss();
  } finally {
    ended = true;
    clearInterval(rssTimer);
    await healthLoop.catch(() => undefined);
  }
  return { crawl: current, last_page_seen_ms: Math.round(lastPageSeen), ended_seen_ms: Math.round(endedSeen), polls, rss, health };
}
