// The benchmark results: the machine they ran on, the targets of the issue judged against them, and
// the two files every run writes (bench/results/latest.json and latest.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { CreateResult } from './create.ts';
import type { CrawlResult } from './crawl.ts';
import type { RenderBenchOutcome } from './render.ts';
import type { EngineResult } from './engine.ts';
import type { BenchMode } from './mode.ts';
import { REPO_ROOT } from './processes.ts';
import type { QueueEngineName, QueueEngineResult, QueueResult } from './queue.ts';
import { OPEN_LOOP_RATE, READ_QUERIES, TARGET_REPORTS, type ReadResult } from './read.ts';
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
  /** null: not measured in this run */
  value: number | null;
  /** met or missed; null: not measured in this run (`not_run` says why, and how to measure it) */
  met: boolean | null;
  not_run?: string;
  /** measured on other inputs than the target's (smoke or quick mode, fewer reports): judged all the same, but not the target's measurement */
  conditions?: string;
  /** figures reported beside it, not judged */
  beside?: string;
}

/** The parts whose targets are judged, each measured or not in a run. */
export type TargetPart = 'engine' | 'create' | 'queue.embedded' | 'queue.bullmq' | 'read' | 'read_postgres' | 'crawl' | 'render';

export interface BenchResults {
  generated_at: string;
  mode: BenchMode;
  command: string;
  machine: Machine;
  /** wall seconds each benchmark took, and the whole run */
  durations_s: Record<string, number>;
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

/** Every read's p99 at OPEN_LOOP_RATE requests a second, open loop, at TARGET_REPORTS reports. */
const LATENCY_TARGET_MS = 25;
/** Background analysis against synchronous creates, for each queue engine. */
const QUEUE_RATIO_TARGET = 0.8;
/** Rendered creates per second against only loading the same pages in the same Chromium. */
const RENDER_RATIO_TARGET = 0.6;
/** A crawl's pages per second against fetch + bare parse of the same pages at its concurrency. */
const CRAWL_RATIO_TARGET = 0.5;
/** The server's peak RSS crawling the largest site over the smallest: a crawl's memory must not grow with its pages. */
const CRAWL_RSS_RATIO_TARGET = 1.2;

type Results = Omit<BenchResults, 'targets'>;

/** One target: its part, and its value (with `met`, and what else to say) when its part ran. */
interface TargetSpec {
  part: TargetPart;
  metric: string;
  target: string;
  judge(results: Results): { value: number; met: boolean; beside?: string; conditions?: string } | undefined;
}

const atLeast = (value: number, target: number) => ({ value, met: value >= target });
const atMost = (value: number, target: number) => ({ value, met: value <= target });

function readTargets(key: 'read' | 'read_postgres'): TargetSpec[] {
  return READ_QUERIES.map((query) => ({
    part: key,
    metric: `${key}.${query}.open_loop.p99_ms`,
    target: `< ${LATENCY_TARGET_MS} ms at ${OPEN_LOOP_RATE} req/s open loop, ${TARGET_REPORTS.toLocaleString('en-US')} reports, no errors`,
    judge(results) {
      const read = results[key];
      if (!read) return undefined;
      const { open_loop: open, closed_loop: closed } = read[query];
      return {
        value: open.p99_ms,
        met: open.p99_ms < LATENCY_TARGET_MS && open.errors === 0,
        beside:
          `open loop: ${open.achieved_rps} of ${open.offered_rps} req/s answered, p50 ${open.p50_ms} ms, max ${open.max_ms} ms, ` +
          `${open.errors} errors; closed loop at ${read.connections} connections: ${closed.rps} req/s, p50 ${closed.p50_ms} ms, ` +
          `p99 ${closed.p99_ms} ms, ${read[query].ratio_vs_query_floor} of its query floor`,
        ...(read.seed.reports === TARGET_REPORTS ? {} : { conditions: `at ${read.seed.reports.toLocaleString('en-US')} reports` }),
      };
    },
  }));
}

/** Every target of the project, whether this run measured it or not. */
const TARGETS: TargetSpec[] = [
  { part: 'engine', metric: 'engine.ratio_vs_parse', target: '<= 2.0', judge: (r) => r.engine && atMost(r.engine.ratio_vs_parse, 2.0) },
  { part: 'create', metric: 'create.ratio_vs_fetch_parse', target: '>= 0.5', judge: (r) => r.create && atLeast(r.create.ratio_vs_fetch_parse, 0.5) },
  ...(['embedded', 'bullmq'] as const).map(
    (engine): TargetSpec => ({
      part: `queue.${engine}`,
      metric: `queue.${engine}.ratio_vs_create`,
      target: `>= ${QUEUE_RATIO_TARGET}`,
      judge(results) {
        const result = results.queue?.[engine];
        return result ? atLeast(result.ratio_vs_create, QUEUE_RATIO_TARGET) : undefined;
      },
    }),
  ),
  ...readTargets('read'),
  ...readTargets('read_postgres'),
  {
    part: 'crawl',
    metric: 'crawl.ratio_vs_fetch_parse',
    target: `>= ${CRAWL_RATIO_TARGET}`,
    judge: (r) => r.crawl && atLeast(r.crawl.ratio_vs_fetch_parse, CRAWL_RATIO_TARGET),
  },
  { part: 'crawl', metric: 'crawl.rss_peak_ratio', target: `<= ${CRAWL_RSS_RATIO_TARGET}`, judge: (r) => r.crawl && atMost(r.crawl.rss_peak_ratio, CRAWL_RSS_RATIO_TARGET) },
  {
    part: 'render',
    metric: 'render.ratio_vs_browser_floor',
    target: `>= ${RENDER_RATIO_TARGET}`,
    judge: (r) => (r.render && 'result' in r.render ? atLeast(r.render.result.ratio_vs_browser_floor, RENDER_RATIO_TARGET) : undefined),
  },
];

const MODE_CONDITIONS: Record<BenchMode, string | undefined> = {
  smoke: 'smoke mode: tiny inputs and runs',
  quick: 'quick mode: small inputs and short runs',
  full: undefined,
};

/**
 * Every target, judged where this run measured it; `notRun(part)` says why a part did not run and
 * how to run it.
 */
export function evaluateTargets(results: Results, notRun: (part: TargetPart) => string): Target[] {
  return TARGETS.map((spec) => {
    const judged = spec.judge(results);
    if (!judged) return { metric: spec.metric, target: spec.target, value: null, met: null, not_run: notRun(spec.part) };
    const conditions = [MODE_CONDITIONS[results.mode], judged.conditions].filter(Boolean).join(', ');
    return {
      metric: spec.metric,
      target: spec.target,
      value: judged.value,
      met: judged.met,
      ...(conditions ? { conditions } : {}),
      ...(judged.beside ? { beside: judged.beside } : {}),
    };
  });
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
  const example = (query: (typeof READ_QUERIES)[number]) => `${query} \`${read[query].example}\``;
  return [
    `### Read (${key}): ${read.database}, ${seed.reports} reports, ${seed.accounts} accounts, ${seed.projects} projects`,
    '',
    `Database ${seed.disk_mb} MB on disk; seeding took ${seed.seed_s} s${seed.seeded_now ? '' : ' (in an earlier run; reused)'}. ` +
      `Server RSS peak ${read.server_rss_peak_mb} MB.`,
    '',
    `#### Open loop: ${read.open_loop_rate} requests a second on schedule (the target: p99 under ${LATENCY_TARGET_MS} ms, no errors)`,
    '',
    table(
      ['query', 'offered req/s', 'achieved req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'requests', 'most in flight', 'server main thread busy', 'server main thread ms/req', 'generator lag p99 ms', 'load CPU µs/req'],
      READ_QUERIES.map((query) => {
        const { open_loop: open, open_loop_main_thread: main } = read[query];
        const errors = open.error_kinds ? `${open.errors} ${JSON.stringify(open.error_kinds)}` : open.errors;
        return [example(query), open.offered_rps, open.achieved_rps, open.p50_ms, open.p99_ms, open.max_ms, errors, open.requests, open.max_in_flight, main.busy, main.cpu_ms_per_request, open.send_lag_p99_ms, open.load_cpu_us];
      }),
    ),
    '',
    `#### Closed loop: ${read.connections} connections, each sending its next request once the last is answered, against the query floor`,
    '',
    table(
      ['query', 'req/s', 'p50 ms', 'p99 ms', 'body bytes', 'statements/req', 'query floor req/s', 'floor p50 ms', 'floor p99 ms', 'ratio vs query floor', 'load CPU µs/req'],
      READ_QUERIES.map((query) => {
        const { closed_loop: closed, query_floor: floor, ratio_vs_query_floor: ratio } = read[query];
        return [query, closed.rps, closed.p50_ms, closed.p99_ms, closed.response_bytes, floor.statements_per_request, floor.rps, floor.p50_ms, floor.p99_ms, ratio, closed.load_cpu_us];
      }),
    ),
    '',
    'Open loop: each request is sent when its turn in the schedule comes, whether or not the earlier ones have been answered ' +
      `(over up to ${read[READ_QUERIES[0]].open_loop.connections} keep-alive connections; a request due while all are busy waits ` +
      'for one), and timed from when it was due to the last byte of its answer, so a server that falls behind shows it in the ' +
      'latencies. "Server main thread": the share of the open loop\'s wall time the server\'s main thread (its event loop, where ' +
      'every SQLite statement runs) was on a CPU, and its CPU time per request; near 1, requests wait for it. "Generator lag": how late the generator itself sent requests (counted in their latency too). Errors: requests ' +
      'without a 2xx answer, warm-up included. Closed loop: the most the server answers a second, and its latency with ' +
      `${read.connections} requests always in flight. The query floor runs the SQL statements each planned request runs in the ` +
      "server (the key lookup, the page, the count when the page is full, the show's read; captured from the server's code) " +
      `straight through the driver, for the same requests, in a process of its own: ${floorConnections}. The server's closed ` +
      'loop and the floor take turns, a few seconds each, over several rounds, each figure over all its rounds; the ratio is ' +
      'reported, not a target. "Load CPU" is what the load generator (a process of its own) spent per request: a run where it ' +
      'is much higher than usual was disturbed.',
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

const TARGET_STATE = (target: Target) => (target.met === null ? 'not run' : target.met ? 'yes' : 'NO');

export function targetsSection(targets: Target[], durationsS: Record<string, number>): string {
  const count = (state: string) => targets.filter((target) => TARGET_STATE(target) === state).length;
  const parts = Object.entries(durationsS)
    .filter(([name]) => name !== 'total')
    .map(([name, seconds]) => `${name} ${seconds} s`);
  return [
    '### Targets',
    '',
    `${count('yes')} met, ${count('NO')} missed, ${count('not run')} not run. "*": measured on other inputs than the target's (see notes).`,
    '',
    table(
      ['metric', 'target', 'value', 'met', 'notes'],
      targets.map((target) => [
        target.metric,
        target.target,
        target.value ?? '',
        `${TARGET_STATE(target)}${target.conditions ? '*' : ''}`,
        [target.not_run, target.conditions, target.beside].filter(Boolean).join('; '),
      ]),
    ),
    '',
    `Took ${durationsS.total} s${parts.length > 0 ? ` (${parts.join(', ')})` : ''}.`,
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
    targetsSection(results.targets, results.durations_s),
  ].filter((section): section is string => typeof section === 'string');
  const json = join(directory, 'latest.json');
  const markdown = join(directory, 'latest.md');
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(markdown, `${sections.join('\n\n')}\n`);
  return { json, markdown };
}
