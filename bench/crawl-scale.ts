// Crawl-scale benchmark (`npm run bench -- --only crawl-scale [--pages N] [--engine sqlite|postgres]`):
// one site audit of a generated site of N pages (crawl-scale-site.ts, a process of its own) through
// the real server, max_pages N, max_depth 50 (the tree is 6 clicks deep at a million pages), the
// sitemap read, PAGEGRADE_CRAWL_CONCURRENCY 8, on SQLite with the embedded queue or on PostgreSQL
// with BullMQ and two workers (crawl-scale-engine.ts). Watched from outside while it runs
// (crawl-scale-watch.ts): pages per second, each process's RSS over the crawl, GET /health latency,
// and the finish step (the poll that first saw the last page stored to the one that saw the crawl
// done). Then the database's bytes per page and the stored-once check (crawl-scale-check.ts). Floor:
// a wget --spider-style crawler of the same site at the same concurrency (crawl-scale-floor.ts), run
// just before and just after the crawl, their mean the ratio's baseline. Targets: crawl-scale-report.ts.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadConfig } from '../src/config.ts';
import { checkStoredOnce, type StoredOnce } from './crawl-scale-check.ts';
import { install, type ScaleEngine } from './crawl-scale-engine.ts';
import type { FloorCrawl } from './crawl-scale-floor.ts';
import { callServer, watchCrawl, type CrawlBody, type CrawlWatch } from './crawl-scale-watch.ts';
import type { BenchMode } from './mode.ts';
import { cpuSeconds, freePort, runToCompletion, startService, threadCpuSeconds, type ProcessOptions } from './processes.ts';
import { MB, percentile, round } from './stats.ts';

export const CRAWL_SCALE_PAGES: Record<BenchMode, number> = { smoke: 100, quick: 2_000, full: 10_000 };
export const CRAWL_SCALE_MAX_PAGES = 1_000_000;
const CRAWL_CONCURRENCY = 8;
/** The crawl's work jobs and its start job. */
const JOB_SLOTS = CRAWL_CONCURRENCY + 1;
const MAX_DEPTH = 50;
/** The RSS spread is taken from this share of the pages crawled on, past the start's growth. */
const RSS_WINDOW_FROM = 0.1;

interface SiteIssue {
  id: string;
  importance: string;
  count: number;
}

export interface ProcessFigures {
  name: string;
  /** the highest of its VmHWM and the samples */
  rss_peak_mb: number;
  rss_start_mb: number;
  /** the first sample with at least 10% of the pages crawled, and the last before the last page was stored */
  rss_at_10pct_mb: number | null;
  rss_at_100pct_mb: number | null;
  /** (max - min) / min of the samples from 10% of the pages crawled to the last page stored: V8's sawtooth included */
  rss_spread_10_to_100: number | null;
  /**
   * Growth from 10% to 100% of the crawl: the median sample of the last tenth against the median of
   * the second (10-20%), as a share of the latter. Medians, so that where one sample falls in the
   * garbage collector's sawtooth does not decide it; memory that grows with the pages shows here.
   */
  rss_growth_10_to_100: number | null;
  /** VmRSS at every tenth of the crawl, 0% to 100% */
  rss_by_tenth_mb: (number | null)[];
  cpu_ms_per_page: number;
  main_thread_cpu_ms_per_page: number;
}

export interface CrawlScaleResult {
  engine: ScaleEngine;
  workers: string;
  pages: number;
  concurrency: number;
  page_kb: number;
  /** the server's PAGEGRADE_SQLITE_CACHE_MB (SQLite's page cache is part of its RSS) */
  sqlite_cache_mb: number;
  /** the crawl as GET /api/v1/crawls/{id} showed it last */
  crawl: CrawlBody;
  complete: boolean;
  /** POST to the crawl seen ended */
  seconds: number;
  pages_per_s: number;
  /** POST to the last page seen stored */
  crawl_phase_s: number;
  finish_s: number;
  finish_share: number;
  floor: FloorCrawl;
  floor_after: FloorCrawl;
  floor_pages_per_s: number;
  ratio_vs_floor: number;
  processes: ProcessFigures[];
  /** once the crawl was done (SQLite: the file and its WAL; PostgreSQL: pg_database_size) */
  database_bytes: number;
  /** the migrated, empty database, before the crawl */
  database_bytes_before: number;
  /** (database_bytes - database_bytes_before) / pages crawled */
  database_bytes_per_page: number;
  health: { samples: number; failed: number; p50_ms: number; p99_ms: number; max_ms: number; max_during_pages_ms: number; max_during_finish_ms: number };
  stored_once: StoredOnce;
  /** the site checks that found something (the site has planted broken links, redirects, shared titles) */
  site_issues: SiteIssue[];
  polls: number;
  load_average: { start: number; end: number };
  site_cpu_ms_per_page: number;
}

// Hours of samples are too many for Math.max's arguments.
const maxOf = (values: number[]) => values.reduce((max, value) => Math.max(max, value), 0);
const minOf = (values: number[]) => values.reduce((min, value) => Math.min(min, value), Infinity);

/** A process's VmHWM: the most resident memory it ever held (the kernel's high-water mark). */
function vmHwmMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? round((Number(match[1]) * 1024) / MB, 1) : 0;
}

function growth(samples: readonly { pages_crawled: number; mb: number }[], pages: number): number | null {
  const between = (from: number, to: number) => samples.filter((sample) => sample.pages_crawled >= from * pages && sample.pages_crawled < to * pages).map((sample) => sample.mb);
  const second = between(0.1, 0.2);
  const last = between(0.9, 1.0001);
  if (second.length === 0 || last.length === 0) return null;
  const early = percentile(second, 50);
  return round((percentile(last, 50) - early) / early, 3);
}

function processFigures(watch: CrawlWatch, index: number, name: string, hwm: number, cpu: number, mainCpu: number): ProcessFigures {
  const pages = Math.max(watch.crawl.pages_crawled, 1);
  const samples = watch.rss.map((sample) => ({ ...sample, mb: sample.rss_mb[index] }));
  const window = samples.filter((sample) => sample.pages_crawled >= RSS_WINDOW_FROM * pages && sample.at_ms <= watch.last_page_seen_ms);
  const values = window.map((sample) => sample.mb);
  const tenths = Array.from({ length: 11 }, (_, tenth) => samples.find((sample) => sample.pages_crawled >= (tenth / 10) * pages)?.mb ?? null);
  return {
    name,
    rss_peak_mb: maxOf([hwm, ...samples.map((sample) => sample.mb)]),
    rss_start_mb: samples[0]?.mb ?? 0,
    rss_at_10pct_mb: window[0]?.mb ?? null,
    rss_at_100pct_mb: window.at(-1)?.mb ?? null,
    rss_spread_10_to_100: values.length === 0 ? null : round((maxOf(values) - minOf(values)) / minOf(values), 3),
    rss_growth_10_to_100: growth(samples.filter((sample) => sample.at_ms <= watch.last_page_seen_ms), pages),
    rss_by_tenth_mb: tenths,
    cpu_ms_per_page: round((cpu * 1000) / pages, 2),
    main_thread_cpu_ms_per_page: round((mainCpu * 1000) / pages, 2),
  };
}

function healthFigures(watch: CrawlWatch) {
  const all = watch.health.map((sample) => sample.latency_ms);
  const during = (pages: boolean) =>
    maxOf(watch.health.filter((sample) => (sample.at_ms < watch.last_page_seen_ms) === pages).map((sample) => sample.latency_ms));
  return {
    samples: all.length,
    failed: watch.health.filter((sample) => !sample.ok).length,
    p50_ms: all.length ? percentile(all, 50) : 0,
    p99_ms: all.length ? percentile(all, 99) : 0,
    max_ms: maxOf(all),
    max_during_pages_ms: during(true),
    max_during_finish_ms: during(false),
  };
}

export async function runCrawlScaleBenchmark(pages: number, engine: ScaleEngine, options: ProcessOptions = {}): Promise<CrawlScaleResult> {
  const sitePort = await freePort();
  const site = await startService('bench/crawl-scale-site.ts', sitePort, { PORT: String(sitePort), CRAWL_SCALE_PAGES: String(pages) }, '/robots.txt', options);
  try {
    const startUrl = `${site.origin}/`;
    const sample = await Promise.all(Array.from({ length: Math.min(pages, 50) }, async (_, index) => (await (await fetch(`${site.origin}${index === 0 ? '/' : `/page/${index}`}`)).arrayBuffer()).byteLength));
    const runFloor = () => runToCompletion<FloorCrawl>('bench/crawl-scale-floor.ts', { startUrl, maxPages: pages, concurrency: CRAWL_CONCURRENCY }, options);
    const floor = await runFloor();
    const crawlEnv = { PAGEGRADE_CRAWL_CONCURRENCY: String(CRAWL_CONCURRENCY), PAGEGRADE_CRAWL_MAX_PAGES: String(pages) };
    const installation = await install(engine, crawlEnv, JOB_SLOTS, options);
    let measured;
    try {
      const pids = installation.processes.map((each) => each.pid);
      const cpuBefore = pids.map((pid) => [cpuSeconds(pid), threadCpuSeconds(pid)]);
      const siteCpuBefore = cpuSeconds(site.pid);
      const databaseBytesBefore = await installation.databaseBytes();
      const loadStart = loadavg()[0];
      const postedAt = performance.now();
      const { data: queued } = await callServer<{ data: CrawlBody }>(installation.origin, 'POST', '/api/v1/crawls', { url: startUrl, max_pages: pages, max_depth: MAX_DEPTH });
      const watch = await watchCrawl(installation.origin, queued, postedAt, pids);
      const figures = installation.processes.map((each, index) =>
        processFigures(watch, index, each.name, vmHwmMb(each.pid), cpuSeconds(each.pid) - cpuBefore[index][0], threadCpuSeconds(each.pid) - cpuBefore[index][1]),
      );
      const siteCpu = cpuSeconds(site.pid) - siteCpuBefore;
      const databaseBytes = await installation.databaseBytes();
      const storedOnce = await checkStoredOnce(installation, queued.id, watch.crawl.pages_crawled);
      // Hours of crawl are not lost over a list whose shape changed: its error is reported instead.
      const issues = await callServer<{ data: SiteIssue[] }>(installation.origin, 'GET', `/api/v1/crawls/${queued.id}/issues`).then(
        ({ data }) => data,
        (error: Error) => [{ id: `(could not list: ${error.message.slice(0, 200)})`, importance: '', count: 0 }],
      );
      measured = {
        watch,
        figures,
        databaseBytes,
        databaseBytesBefore,
        storedOnce,
        siteCpu,
        issues: issues.map(({ id, importance, count }) => ({ id, importance, count })),
        load: { start: round(loadStart, 2), end: round(loadavg()[0], 2) },
      };
    } finally {
      await installation.close();
    }
    const floorAfter = await runFloor();
    const { watch } = measured;
    const crawled = watch.crawl.pages_crawled;
    const seconds = watch.ended_seen_ms / 1000;
    const finishS = (watch.ended_seen_ms - watch.last_page_seen_ms) / 1000;
    const floorPagesPerS = round((floor.pages_per_s + floorAfter.pages_per_s) / 2, 1);
    return {
      engine,
      workers: installation.workers,
      pages,
      concurrency: CRAWL_CONCURRENCY,
      // The server reads the same environment this process has.
      sqlite_cache_mb: loadConfig(process.env).sqliteCacheMb,
      page_kb: round(sample.reduce((sum, bytes) => sum + bytes, 0) / sample.length / 1000, 1),
      crawl: watch.crawl,
      complete: watch.crawl.state === 'done' && crawled === pages,
      seconds: round(seconds, 2),
      pages_per_s: round(crawled / seconds, 1),
      crawl_phase_s: round(watch.last_page_seen_ms / 1000, 2),
      finish_s: round(finishS, 2),
      finish_share: round(finishS / seconds, 4),
      floor,
      floor_after: floorAfter,
      floor_pages_per_s: floorPagesPerS,
      ratio_vs_floor: round(crawled / seconds / floorPagesPerS, 3),
      processes: measured.figures,
      database_bytes: measured.databaseBytes,
      database_bytes_before: measured.databaseBytesBefore,
      database_bytes_per_page: Math.round((measured.databaseBytes - measured.databaseBytesBefore) / Math.max(crawled, 1)),
      health: healthFigures(watch),
      stored_once: measured.storedOnce,
      site_issues: measured.issues,
      polls: watch.polls,
      load_average: measured.load,
      site_cpu_ms_per_page: round((measured.siteCpu * 1000) / Math.max(crawled, 1), 2),
    };
  } finally {
    await site.stop();
  }
}
