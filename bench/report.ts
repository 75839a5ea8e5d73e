// The benchmark results: the machine they ran on, the targets of the issue judged against them, and
// the two files every run writes (bench/results/latest.json and latest.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { CreateResult } from './create.ts';
import type { CrawlResult } from './crawl.ts';
import type { RenderBenchOutcome } from './render.ts';
import type { EngineResult } from './engine.ts';
import { REPO_ROOT } from './processes.ts';
import type { QueueEngineName, QueueEngineResult, QueueResult } from './queue.ts';
import { READ_QUERIES, type ReadResult } from './read.ts';
import { round } from './stats.ts';

export interface Machine {
  node: string;
  cpu_model: string;
  cores: number;
  memory_gb: number;
  platform: string;
  /** 1, 5 and 15 minute load averages as the run began: other work on a shared machine shows here */
  load_average: number[];
  note: string;
}

export interface Target {
  metric: string;
  target: string;
  value: number;
  met: boolean;
}

export interface BenchResults {
  generated_at: string;
  mode: 'quick' | 'full';
  command: string;
  machine: Machine;
  engine?: EngineResult;
  create?: CreateResult;
  queue?: QueueResult;
  read?: ReadResult;
  read_postgres?: ReadResult;
  crawl?: CrawlResult;
  /** `skipped` (and why) when no Chromium was there to measure */
  render?: RenderBenchOutcome;
  targets: Target[];
}

export const RESULTS_DIR = join(REPO_ROOT, 'bench/results');

export function machineInfo(): Machine {
  const cores = availableParallelism();
  return {
    node: process.version,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    cores,
    memory_gb: round(totalmem() / 1024 ** 3, 1),
    platform: `${process.platform} ${process.arch}`,
    load_average: loadavg().map((load) => round(load, 2)),
    note:
      `All processes share these ${cores} cores: the server under test in one process and the load generator in ` +
      'another (or a floor, alone, in one), a queue worker beside the server in the queue benchmark, the corpus website in the ' +
      'benchmark process, Redis and PostgreSQL.',
  };
}

const LATENCY_TARGET_MS = 25;
/** Background analysis against synchronous creates, for each queue engine (issue 27). */
const QUEUE_RATIO_TARGET = 0.8;
/**
 * Each list's throughput against its query floor. Show's ratio is reported, not judged: the issue sets
 * the target for lists, and beyond its one read a show parses and writes out again 15 KB of check
 * results, work its floor (one row read) has no part of.
 */
const LIST_RATIO_TARGET = 0.5;
/** Rendered creates per second against only loading the same pages in the same Chromium (issue: rendering). */
const RENDER_RATIO_TARGET = 0.6;
/** A crawl's pages per second against fetch + bare parse of the same pages at its concurrency. */
const CRAWL_RATIO_TARGET = 0.5;
/** The server's peak RSS crawling the largest site over the smallest: a crawl's memory must not grow with its pages. */
const CRAWL_RSS_RATIO_TARGET = 1.2;

export function evaluateTargets(results: Omit<BenchResults, 'targets'>): Target[] {
  const targets: Target[] = [];
  if (results.engine) {
    const value = results.engine.ratio_vs_parse;
    targets.push({ metric: 'engine.ratio_vs_parse', target: '<= 2.0', value, met: value <= 2.0 });
  }
  if (results.create) {
    const value = results.create.ratio_vs_fetch_parse;
    targets.push({ metric: 'create.ratio_vs_fetch_parse', target: '>= 0.5', value, met: value >= 0.5 });
  }
  for (const engine of ['embedded', 'bullmq'] as const) {
    const value = results.queue?.[engine]?.ratio_vs_create;
    if (value === undefined) continue;
    targets.push({ metric: `queue.${engine}.ratio_vs_create`, target: `>= ${QUEUE_RATIO_TARGET}`, value, met: value >= QUEUE_RATIO_TARGET });
  }
  for (const [key, read] of [
    ['read', results.read],
    ['read_postgres', results.read_postgres],
  ] as const) {
    if (!read) continue;
    for (const query of READ_QUERIES) {
      const p99 = read[query].p99_ms;
      targets.push({ metric: `${key}.${query}.p99_ms`, target: `< ${LATENCY_TARGET_MS}`, value: p99, met: p99 < LATENCY_TARGET_MS });
      if (query === 'show') continue;
      const ratio = read[query].ratio_vs_query_floor;
      targets.push({
        metric: `${key}.${query}.ratio_vs_query_floor`,
        target: `>= ${LIST_RATIO_TARGET}`,
        value: ratio,
        met: ratio >= LIST_RATIO_TARGET,
      });
    }
  }
  if (results.render && 'result' in results.render) {
    const value = results.render.result.ratio_vs_browser_floor;
    targets.push({ metric: 'render.ratio_vs_browser_floor', target: `>= ${RENDER_RATIO_TARGET}`, value, met: value >= RENDER_RATIO_TARGET });
  }
  if (results.crawl) {
    const ratio = results.crawl.ratio_vs_fetch_parse;
    targets.push({ metric: 'crawl.ratio_vs_fetch_parse', target: `>= ${CRAWL_RATIO_TARGET}`, value: ratio, met: ratio >= CRAWL_RATIO_TARGET });
    const rss = results.crawl.rss_peak_ratio;
    targets.push({ metric: 'crawl.rss_peak_ratio', target: `<= ${CRAWL_RSS_RATIO_TARGET}`, value: rss, met: rss <= CRAWL_RSS_RATIO_TARGET });
  }
  return targets;
}

function table(header: string[], rows: (string | number)[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

export function engineSection(engine: EngineResult): string {
  return [
    `### Engine: parse + all checks, ${engine.pages} corpus pages (${engine.mb} MB) in memory, ${engine.rounds} rounds`,
    '',
    table(
      ['', 'pages/s', 'MB/s', 'p50 ms/page', 'p99 ms/page', 'ms per corpus pass', 'peak heap MB'],
      [
        ['engine', engine.pages_per_s, engine.mb_per_s, engine.p50_ms, engine.p99_ms, engine.pass_ms, engine.peak_heap_mb],
        ['floor: bare htmlparser2 parse', engine.parse.pages_per_s, engine.parse.mb_per_s, engine.parse.p50_ms, engine.parse.p99_ms, engine.parse.pass_ms, ''],
      ],
    ),
    '',
    `engine.ratio_vs_parse = ${engine.ratio_vs_parse} (engine time / bare parse time; target <= 2.0)`,
  ].join('\n');
}

export function createSection(create: CreateResult): string {
  return [
    `### Create: POST /api/v1/reports, ${create.requests} reports, ${create.connections} concurrent clients, SQLite, ` +
      `${create.analysis_threads} analysis thread${create.analysis_threads === 1 ? '' : 's'}`,
    '',
    table(
      ['', 'per second', 'p50 ms', 'p99 ms', 'server RSS peak MB', 'server CPU ms/report'],
      [
        ['create reports', create.rps, create.p50_ms, create.p99_ms, create.server_rss_peak_mb, create.server_cpu_ms_per_report],
        ['floor: undici fetch + bare parse', create.floor.rps, create.floor.p50_ms, create.floor.p99_ms, '', ''],
      ],
    ),
    '',
    `create.ratio_vs_fetch_parse = ${create.ratio_vs_fetch_parse} (create throughput / floor throughput; target >= 0.5)`,
  ].join('\n');
}

const QUEUE_ENGINE_TITLES: Record<QueueEngineName, string> = { embedded: 'embedded engine (jobs in SQLite)', bullmq: 'BullMQ (Redis)' };

function queueEngineTable(engine: QueueEngineName, result: QueueEngineResult): string {
  const overhead = result.overhead;
  return [
    `#### ${QUEUE_ENGINE_TITLES[engine]}: jobs run by ${result.workers}`,
    '',
    table(
      ['reports/s to done', 'seconds', 'ratio vs create', 'CPU ms/report', '202 answers/s', '202 p50 ms', '202 p99 ms', 'empty job: ms per job (batch)', 'empty job alone: p50 ms', 'p99 ms'],
      [
        [
          result.reports_per_s,
          result.seconds,
          result.ratio_vs_create,
          result.cpu_ms_per_report,
          result.accepted.rps,
          result.accepted.p50_ms,
          result.accepted.p99_ms,
          overhead.ms_per_job,
          overhead.sequential.p50_ms,
          overhead.sequential.p99_ms,
        ],
      ],
    ),
    '',
    `queue.${engine}.ratio_vs_create = ${result.ratio_vs_create} (async reports done per second / create reports per second; target >= ${QUEUE_RATIO_TARGET})`,
  ].join('\n');
}

export function queueSection(queue: QueueResult): string {
  const engines = [queueEngineTable('embedded', queue.embedded)];
  if (queue.bullmq) engines.push(queueEngineTable('bullmq', queue.bullmq));
  else engines.push(`#### ${QUEUE_ENGINE_TITLES.bullmq}: skipped, ${queue.bullmq_skipped}`);
  const sizes = queue.embedded;
  return [
    `### Queue: POST /api/v1/reports with async=1, ${sizes.reports} reports, ${queue.connections} concurrent clients, SQLite, ` +
      `until every one is done; against create's ${queue.create_rps} reports/s (its server: ${queue.create_cpu_ms_per_report} CPU ms/report)`,
    '',
    ...engines.flatMap((section) => [section, '']),
    `The empty job is the queue's own cost, nothing else: ${sizes.overhead.jobs} jobs enqueued by ${queue.connections} producers ` +
      `while the queue runs ${queue.connections} at once, first enqueue to last run (batch), and ${sizes.overhead.sequential.jobs} ` +
      'jobs one at a time, each enqueue to its handler finished (alone); producer and worker in one process, embedded on a fresh ' +
      'SQLite file. CPU ms/report: what the server and the worker (every thread) used from the first request to the last ' +
      'report done, over the reports; on a machine the benchmark keeps busy, the ratio follows create\'s CPU per report ' +
      'over this.',
  ].join('\n');
}

export function readSection(key: string, read: ReadResult): string {
  const seed = read.seed;
  const floorConnections =
    read.database === 'sqlite'
      ? 'one connection running one request at a time, as the server\'s'
      : `${read.connections} connections each running one request at a time, as the server's pool`;
  return [
    `### Read (${key}): ${read.database}, ${seed.reports} reports, ${seed.accounts} accounts, ${seed.projects} projects, ` +
      `${read.connections} connections`,
    '',
    `Database ${seed.disk_mb} MB on disk; seeding took ${seed.seed_s} s${seed.seeded_now ? '' : ' (in an earlier run; reused)'}. ` +
      `Server RSS peak ${read.server_rss_peak_mb} MB.`,
    '',
    table(
      ['query', 'req/s', 'p50 ms', 'p99 ms', 'body bytes', 'statements/req', 'query floor req/s', 'floor p50 ms', 'floor p99 ms', 'ratio vs query floor', 'load CPU µs/req'],
      READ_QUERIES.map((query) => {
        const result = read[query];
        const floor = result.query_floor;
        return [
          `${query} \`${result.example}\``,
          result.rps,
          result.p50_ms,
          result.p99_ms,
          result.response_bytes,
          floor.statements_per_request,
          floor.rps,
          floor.p50_ms,
          floor.p99_ms,
          result.ratio_vs_query_floor,
          result.load_cpu_us,
        ];
      }),
    ),
    '',
    'The query floor runs the SQL statements each planned request runs in the server (the key lookup, the page, the count ' +
      'when the page is full, the show\'s read; captured from the server\'s code) straight through the driver, for the same ' +
      `requests, in a process of its own: ${floorConnections}. The server and the floor take turns, a few seconds each, ` +
      'over several rounds, each figure over all its rounds. Neither keeps answers between requests. Show\'s ratio is ' +
      'reported, not a target (the lists\' is). "Load CPU" is what the load generator (a process of its own) spent per ' +
      'answer: a run where it is much higher than usual was disturbed.',
  ].join('\n');
}

export function renderSection(outcome: RenderBenchOutcome): string {
  if ('skipped' in outcome) return `### Render: skipped, ${outcome.skipped}`;
  const render = outcome.result;
  return [
    `### Render: POST /api/v1/reports with render=1, ${render.requests} corpus pages, ${render.clients} concurrent clients, ` +
      `the default pool (one browser, ${render.concurrency} pages at once), SQLite`,
    '',
    table(
      ['', 'pages/s', 'p50 ms', 'p99 ms', 'not rendered', 'browser pool peak MB (PSS)', 'server CPU ms/report'],
      [
        ['rendered creates', render.rps, render.p50_ms, render.p99_ms, render.render_failures, render.browser_pool_peak_mb, render.server_cpu_ms_per_report],
        ['floor: load in Chromium + read the DOM', render.floor.rps, render.floor.p50_ms, render.floor.p99_ms, render.floor.failed, '', ''],
      ],
    ),
    '',
    `render.ratio_vs_browser_floor = ${render.ratio_vs_browser_floor} (rendered creates per second / floor pages per second; target >= ${RENDER_RATIO_TARGET})`,
    '',
    'Each create fetches and checks the raw page and renders it: a fresh browser context per page behind its own guarded ' +
      'proxy, with the page\'s deadline and caps. The floor loads the same pages, in the same order and as many at once as the ' +
      'pool renders, in one browser and context of the same Chromium with the same arguments, and reads the DOM: no proxy, no ' +
      'raw fetch, no checks, no database, in a process of its own. "Not rendered": pages whose rendering (or, for the floor, loading) failed. ' +
      'Peak memory: the PSS of every process under the server (its browsers), sampled every second. Meant to run without ' +
      'internet access, as CI does: the corpus pages\' other hosts do not resolve, which the proxy\'s resolver says at once and ' +
      'the floor\'s Chromium is told to say at once (its own resolver sometimes takes 10 s).',
  ].join('\n');
}

export function crawlSection(crawl: CrawlResult): string {
  const [smallest, largest] = [crawl.sizes[0], crawl.sizes[crawl.sizes.length - 1]];
  return [
    `### Crawl: POST /api/v1/crawls of a generated loopback site (${crawl.page_kb} KB a page on average, up to 28 links to the site on each), ` +
      `${crawl.concurrency} pages at once, no crawl delay, SQLite, ${crawl.workers} workers, ${crawl.analysis_threads} analysis ` +
      `thread${crawl.analysis_threads === 1 ? '' : 's'}`,
    '',
    table(
      ['pages', 'seconds', 'pages/s', 'finish s', 'floor pages/s (before, after)', 'ratio vs floor', 'server RSS peak MB', 'RSS at start / end MB', 'database MB', 'server CPU ms/page', 'of it main thread', 'server page faults/page', 'floor CPU ms/page', 'site CPU ms/page', 'load: floor, crawl start → end'],
      crawl.sizes.map((size) => [
        size.pages,
        size.seconds,
        size.pages_per_s,
        size.finish_s,
        `${size.floor_pages_per_s} (${size.floor.rps}, ${size.floor_after.rps})`,
        size.ratio_vs_fetch_parse,
        size.server_rss_peak_mb,
        `${size.server_rss_start_mb} / ${size.server_rss_end_mb}`,
        size.database_mb,
        size.server_cpu_ms_per_page,
        size.server_main_thread_cpu_ms_per_page,
        size.server_page_faults_per_page,
        size.floor_cpu_ms_per_page,
        size.site_cpu_ms_per_page,
        `${size.load_average.floor}, ${size.load_average.crawl_start} → ${size.load_average.crawl_end}`,
      ]),
    ),
    '',
    `crawl.ratio_vs_fetch_parse = ${crawl.ratio_vs_fetch_parse} (${largest.pages} pages: crawl pages/s / floor pages/s; target >= ${CRAWL_RATIO_TARGET})`,
    `CPU per page, floor / server (all its threads) = ${crawl.cpu_ratio_vs_fetch_parse} at ${largest.pages} pages (reported, not a target)`,
    `crawl.rss_peak_ratio = ${crawl.rss_peak_ratio} (server peak RSS at ${largest.pages} pages / at ${smallest.pages}; target <= ${CRAWL_RSS_RATIO_TARGET})`,
    '',
    'Each size on a fresh server and database and a site of exactly that many pages; timed from the POST until the poll ' +
      `(every 100 ms) sees the crawl done. "Finish s": from the crawl's last report created (its last page stored) to done seen, ` +
      'the finish step (the site checks over every page\'s facts, inlinks, score). ' +
      'The floor: the same pages fetched with undici and parsed by a bare htmlparser2 parse, ' +
      `${crawl.concurrency} at once, in a process of its own, against the same site, just before and just after the crawl: ` +
      "the ratio is to their mean. Peak RSS is the server's VmHWM; it includes " +
      'SQLite\'s page cache, which holds the pages of the database the crawl reads and writes up to PAGEGRADE_SQLITE_CACHE_MB (256 MB by default).',
  ].join('\n');
}

export function targetsSection(targets: Target[], mode: BenchResults['mode']): string {
  const quickNote = mode === 'quick' ? ['Quick mode: small inputs and short runs; the targets are meant for the full run.', ''] : [];
  return [
    '### Targets',
    '',
    ...quickNote,
    table(
      ['metric', 'target', 'value', 'met'],
      targets.map((target) => [target.metric, target.target, target.value, target.met ? 'yes' : 'NO']),
    ),
  ].join('\n');
}

export function writeResults(results: BenchResults, directory: string): { json: string; markdown: string } {
  mkdirSync(directory, { recursive: true });
  const machine = results.machine;
  const sections = [
    `# pagegrade benchmarks (${results.mode})`,
    `\`${results.command}\` at ${results.generated_at}, Node ${machine.node}, ${machine.cpu_model}, ${machine.cores} cores, ` +
      `${machine.memory_gb} GB, ${machine.platform}, load average ${machine.load_average.join(' ')} at the start. ${machine.note}`,
    results.engine && engineSection(results.engine),
    results.create && createSection(results.create),
    results.queue && queueSection(results.queue),
    results.read && readSection('read', results.read),
    results.read_postgres && readSection('read_postgres', results.read_postgres),
    results.crawl && crawlSection(results.crawl),
    results.render && renderSection(results.render),
    targetsSection(results.targets, results.mode),
  ].filter((section): section is string => typeof section === 'string');
  const json = join(directory, 'latest.json');
  const markdown = join(directory, 'latest.md');
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(markdown, `${sections.join('\n\n')}\n`);
  return { json, markdown };
}
