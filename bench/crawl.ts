// Crawl benchmark: a site audit of a generated loopback site (crawl-site.ts, a process of its own) by
// the real server (its own process, SQLite), with PAGEGRADE_CRAWL_CONCURRENCY pages at once and no
// crawl delay, for two site sizes (full: 1,000 and 10,000 pages; quick: 300 and 1,000; smoke: 16 and 32), each on a
// fresh server and database. Timed from POST /api/v1/crawls until GET /api/v1/crawls/{id} says done;
// the server's peak RSS is its VmHWM (the kernel's high-water mark of the process's resident memory).
// Floor: the same N pages fetched with undici and parsed by a bare htmlparser2 parse at the same
// concurrency (fetch-parse-floor.ts, a process of its own) against the same site, just before and
// just after the crawl; the ratio's baseline is their mean.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import type { BenchMode } from './mode.ts';
import { BENCH_ADMIN_KEY, startPagegrade } from './pagegrade-server.ts';
import { CLOSE_CONNECTION, cpuSeconds, freePort, runToCompletion, startService, type ProcessOptions, type ServiceProcess } from './processes.ts';
import { MB, round, type Throughput } from './stats.ts';

/** The server's PAGEGRADE_SQLITE_CACHE_MB (see crawlOnce). */
const BENCH_SQLITE_CACHE_MB = 8;
/** PAGEGRADE_CRAWL_CONCURRENCY for the server, and the floor's concurrency. */
const CRAWL_CONCURRENCY = 8;
/** A crawl runs CRAWL_CONCURRENCY work jobs; the start job needs one more slot. */
const CRAWL_WORKERS = CRAWL_CONCURRENCY + 1;
const SIZES: Record<BenchMode, number[]> = { smoke: [16, 32], quick: [300, 1_000], full: [1_000, 10_000] };
const FLOOR_WARM_UP = 100;
/** Often enough that the end of the crawl is known within a few percent of the run. */
const POLL_MS = 100;
/** A crawl whose page count has not moved for this long has stalled. */
const STALL_MS = 120_000;
const ENDED = ['done', 'failed', 'cancelled'];
/** Linux's USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS_PER_S = 100;

export interface CrawlSizeResult {
  /** pages of the site, max_pages of the crawl */
  pages: number;
  pages_crawled: number;
  pages_found: number;
  pages_failed: number;
  /** POST to the crawl seen done */
  seconds: number;
  pages_per_s: number;
  /**
   * the crawl's last report created (its last page stored) to the crawl seen done: the finish step (site
   * checks, inlinks, score), within a poll. Polls cannot see it begin: while it runs the server does not answer.
   */
  finish_s: number;
  /** the server process's VmHWM after the crawl: the most resident memory it ever held */
  server_rss_peak_mb: number;
  /** its VmRSS once started, before the crawl */
  server_rss_start_mb: number;
  /** its VmRSS once the crawl was done */
  server_rss_end_mb: number;
  /**
   * the SQLite file and its WAL once the crawl was done: SQLite keeps the pages it reads and writes in
   * its page cache, up to PAGEGRADE_SQLITE_CACHE_MB (256 by default), in the server's memory
   */
  database_mb: number;
  /** CPU the server process (all its threads) used from POST to done, per page */
  server_cpu_ms_per_page: number;
  /** of which its main thread's (the event loop: fetches, SQLite, the queue), the crawl's serial part */
  server_main_thread_cpu_ms_per_page: number;
  /**
   * the server's minor page faults per page: memory it touched for the first time since it was mapped.
   * On the VMs we measure on each costs 10-25 µs, so they are a large part of its CPU a page.
   */
  server_page_faults_per_page: number;
  /** CPU the site's process used during the crawl, per page (the floor's pays the same) */
  site_cpu_ms_per_page: number;
  /** the floor run just before the crawl, and again just after it */
  floor: FloorResult;
  floor_after: FloorResult;
  /**
   * the two floors' mean pages per second, the ratio's baseline: the floor moved by up to a third between
   * back-to-back runs on a quiet machine, so one run beside a crawl of a minute or more is a poor baseline
   */
  floor_pages_per_s: number;
  /** the two floors' mean CPU a page */
  floor_cpu_ms_per_page: number;
  /** the machine's one-minute load average as the floor began, as the crawl began and as it ended */
  load_average: { floor: number; crawl_start: number; crawl_end: number };
  /** crawl pages per second / floor pages per second */
  ratio_vs_fetch_parse: number;
}

export interface CrawlResult {
  concurrency: number;
  workers: number;
  /** the server's PAGEGRADE_ANALYSIS_THREADS */
  analysis_threads: number;
  /** the site's bytes per page, on average */
  page_kb: number;
  sizes: CrawlSizeResult[];
  /** the largest size's; target at least 0.5 */
  ratio_vs_fetch_parse: number;
  /**
   * the largest size's floor CPU per page / server CPU per page: what the ratio would be if each got the
   * same CPU time (on a busy machine the clock ratio follows it; the server can use more than one core)
   */
  cpu_ratio_vs_fetch_parse: number;
  /** peak RSS of the largest size / of the smallest; target at most 1.2 */
  rss_peak_ratio: number;
}

/** A /proc/<pid>/status field in kB, as MB. */
function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return round((Number(match[1]) * 1024) / MB, 1);
}

/** A process's minor page faults so far (all its threads), from /proc. */
function minorFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/** A process's main thread's CPU (user + system): its task whose id is the process's. */
function mainThreadCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

async function startCrawlSite(pages: number, options: ProcessOptions): Promise<ServiceProcess> {
  const port = await freePort();
  return startService('bench/crawl-site.ts', port, { PORT: String(port), CRAWL_SITE_PAGES: String(pages) }, '/robots.txt', options);
}

const siteUrls = (origin: string, pages: number) => Array.from({ length: pages }, (_, index) => `${origin}${index === 0 ? '/' : `/page/${index}`}`);

interface CrawlBody {
  id: number;
  state: string;
  pages_crawled: number;
  pages_found: number;
  pages_failed: number;
  error?: string | null;
}

async function api<T = CrawlBody>(origin: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${BENCH_ADMIN_KEY}`, ...CLOSE_CONNECTION, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** fetch-parse-floor.ts's answer: its throughput and the CPU its process spent per page. */
type FloorResult = Throughput & { cpu_ms_per_request: number };

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function crawlOnce(site: ServiceProcess, pages: number, options: ProcessOptions) {
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-crawl-'));
  const databaseFile = join(directory, 'crawl.db');
  const server = await startPagegrade(`sqlite:${databaseFile}`, options, {
    PAGEGRADE_CRAWL_CONCURRENCY: String(CRAWL_CONCURRENCY),
    PAGEGRADE_CRAWL_MAX_PAGES: String(Math.max(pages, 10_000)),
    PAGEGRADE_WORKERS: String(CRAWL_WORKERS),
    // SQLite's page cache is a bounded cache of the database file, not crawl state: at its default
    // (256 MB) it fills as the database grows (29 MB at 1,000 pages, 258 MB at 10,000) and would hide
    // what the crawl itself holds. The memory target is about the crawl.
    PAGEGRADE_SQLITE_CACHE_MB: String(BENCH_SQLITE_CACHE_MB),
  });
  try {
    const rssStart = statusMb(server.pid, 'VmRSS');
    const loadStart = loadavg()[0];
    const serverCpuBefore = cpuSeconds(server.pid);
    const mainThreadCpuBefore = mainThreadCpuSeconds(server.pid);
    const faultsBefore = minorFaults(server.pid);
    const siteCpuBefore = cpuSeconds(site.pid);
    const started = performance.now();
    // external 0: the corpus pages link to the real web (their <base href>), which a machine without
    // internet cannot answer; the floor fetches only the site's own pages too.
    const queued = await api(server.origin, 'POST', '/api/v1/crawls', { url: `${site.origin}/`, max_pages: pages, max_depth: 50, sitemap: 0, external: 0 });
    let crawl = queued;
    let lastProgress = started;
    while (!ENDED.includes(crawl.state)) {
      await sleep(POLL_MS);
      const previous = crawl.pages_crawled + crawl.pages_failed;
      crawl = await api(server.origin, 'GET', `/api/v1/crawls/${queued.id}`);
      const now = performance.now();
      if (crawl.pages_crawled + crawl.pages_failed !== previous) lastProgress = now;
      if (now - lastProgress > STALL_MS) throw new Error(`crawl of ${pages} pages stalled: ${JSON.stringify(crawl)}`);
    }
    const [ended, endedAt, loadEnd] = [performance.now(), Date.now(), loadavg()[0]];
    const seconds = (ended - started) / 1000;
    const serverCpu = cpuSeconds(server.pid) - serverCpuBefore;
    const mainThreadCpu = mainThreadCpuSeconds(server.pid) - mainThreadCpuBefore;
    const faults = minorFaults(server.pid) - faultsBefore;
    const siteCpu = cpuSeconds(site.pid) - siteCpuBefore;
    if (crawl.state !== 'done' || crawl.pages_crawled !== pages) {
      throw new Error(`crawl of ${pages} pages ended ${crawl.state} with ${crawl.pages_crawled} crawled: ${JSON.stringify(crawl)}`);
    }
    // Every page of the site is new to the account, so the newest report is the last page stored.
    const newest = await api<{ created_at: string }[]>(server.origin, 'GET', '/api/v1/reports?per_page=10');
    return {
      pages,
      pages_crawled: crawl.pages_crawled,
      pages_found: crawl.pages_found,
      pages_failed: crawl.pages_failed,
      seconds: round(seconds, 2),
      pages_per_s: round(pages / seconds, 1),
      finish_s: round((endedAt - Date.parse(newest[0].created_at)) / 1000, 2),
      server_rss_peak_mb: statusMb(server.pid, 'VmHWM'),
      server_rss_start_mb: rssStart,
      load: { start: round(loadStart, 2), end: round(loadEnd, 2) },
      server_rss_end_mb: statusMb(server.pid, 'VmRSS'),
      database_mb: round([databaseFile, `${databaseFile}-wal`].reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0) / MB, 1),
      server_cpu_ms_per_page: round((serverCpu * 1000) / pages, 2),
      server_main_thread_cpu_ms_per_page: round((mainThreadCpu * 1000) / pages, 2),
      server_page_faults_per_page: round(faults / pages, 1),
      site_cpu_ms_per_page: round((siteCpu * 1000) / pages, 2),
    };
  } finally {
    await server.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

export async function runCrawlBenchmark(mode: BenchMode, options: ProcessOptions = {}): Promise<CrawlResult> {
  const sizes: CrawlSizeResult[] = [];
  let pageBytes = 0;
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-crawl-urls-'));
  try {
    for (const pages of SIZES[mode]) {
      const site = await startCrawlSite(pages, options);
      try {
        const urls = siteUrls(site.origin, pages);
        if (pageBytes === 0) {
          const sample = await Promise.all(urls.slice(0, 264).map(async (url) => (await (await fetch(url)).arrayBuffer()).byteLength));
          pageBytes = sample.reduce((sum, bytes) => sum + bytes, 0) / sample.length;
        }
        // 10,000 URLs are more than one argument may hold.
        const urlsFile = join(directory, `urls-${pages}.txt`);
        const floorLoad = loadavg()[0];
        await writeFile(urlsFile, urls.join('\n'));
        const runFloor = () =>
          runToCompletion<FloorResult>(
            'bench/fetch-parse-floor.ts',
            { urlsFile, warmUp: Math.min(FLOOR_WARM_UP, pages), amount: pages, concurrency: CRAWL_CONCURRENCY },
            options,
          );
        const floor = await runFloor();
        const { load, ...crawl } = await crawlOnce(site, pages, options);
        const floorAfter = await runFloor();
        const floorPagesPerS = round((floor.rps + floorAfter.rps) / 2, 1);
        sizes.push({
          ...crawl,
          floor,
          floor_after: floorAfter,
          floor_pages_per_s: floorPagesPerS,
          floor_cpu_ms_per_page: round((floor.cpu_ms_per_request + floorAfter.cpu_ms_per_request) / 2, 2),
          load_average: { floor: round(floorLoad, 2), crawl_start: load.start, crawl_end: load.end },
          ratio_vs_fetch_parse: round(crawl.pages_per_s / floorPagesPerS, 3),
        });
      } finally {
        await site.stop();
      }
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  const [smallest, largest] = [sizes[0], sizes[sizes.length - 1]];
  return {
    concurrency: CRAWL_CONCURRENCY,
    workers: CRAWL_WORKERS,
    // The server reads the same environment this process has.
    analysis_threads: loadConfig(process.env).analysisThreads,
    page_kb: round(pageBytes / 1000, 1),
    sizes,
    ratio_vs_fetch_parse: largest.ratio_vs_fetch_parse,
    cpu_ratio_vs_fetch_parse: round(largest.floor_cpu_ms_per_page / largest.server_cpu_ms_per_page, 3),
    rss_peak_ratio: round(largest.server_rss_peak_mb / smallest.server_rss_peak_mb, 3),
  };
}
