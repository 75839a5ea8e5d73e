// `npm run bench [-- --quick | --smoke] [--only engine,create,queue,read,crawl,render,crawl-scale,lab] [--reports n]
// [--pages n] [--engine sqlite|postgres] [--cpu-prof] [--out dir]`: runs the benchmarks, prints each
// table with its ratio against the floor measured in the
// same run and every target met, missed or not run (and why), and writes latest.json and latest.md to
// bench/results/ (or --out). Without --only it runs every benchmark but the million-report read one,
// which runs only when asked (`--only read`; `--reports n` seeds n reports instead, for a look at the
// method; --quick and --smoke, whose reads are small, run it too). --quick: small inputs, a few
// minutes; --smoke: tiny inputs, seconds, to check every part runs and reports (the benchmark's test).
// The floors: a bare parse (engine), fetch + bare parse (create), and for each read query the query
// floor, the SQL statements its requests run in the server run straight through the driver (reported
// beside the read target, which is a latency at an open-loop rate). The read benchmark also runs on
// PostgreSQL when DATABASE_URL points at one. The queue benchmark is judged against the create
// benchmark's throughput, so it runs create too; its BullMQ part runs on REDIS_URL (or a Redis on
// 127.0.0.1:6379) when one answers. The crawl benchmark's floor is fetch + bare parse of the same
// generated site's pages at the crawl's concurrency. The render benchmark's floor only loads the same
// corpus pages in the same Chromium and reads their DOM, at the pool's concurrency; without Chromium
// it is skipped and says so. --cpu-prof writes a V8 profile of the servers under test and the floors
// (each a child process) to bench/.cache/profiles; profile the in-process engine benchmark with
// `node --cpu-prof --import tsx bench/run.ts --only engine`.
// crawl-scale (bench/crawl-scale.ts) runs only when asked: one crawl of a generated site of --pages
// pages (10,000 by default; 2,000 with --quick, 100 with --smoke; its targets are set for 1,000,000),
// on SQLite or, with --engine postgres, on PostgreSQL with BullMQ and two workers; it writes
// crawl-scale-<engine>.json, and latest.json only when another benchmark ran beside it.
// lab (bench/lab.ts) runs only when asked too: lab audits beside Lighthouse 12 on the lab fixture pages
// and 30 corpus pages (about 15 minutes); it writes lab.json.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { assertBuilt } from '../test/support/processes.ts';
import { testRedisAvailable } from '../test/support/redis.ts';
import { crawlScaleSection, crawlScaleTargets, writeCrawlScaleResult } from './crawl-scale-report.ts';
import { CRAWL_SCALE_MAX_PAGES, CRAWL_SCALE_PAGES, runCrawlScaleBenchmark } from './crawl-scale.ts';
import { runCrawlBenchmark } from './crawl.ts';
import { runCreateBenchmark } from './create.ts';
import { runEngineBenchmark } from './engine.ts';
import type { BenchMode } from './mode.ts';
import { REPO_ROOT } from './processes.ts';
import { runQueueBenchmark } from './queue.ts';
import { runReadBenchmark } from './read.ts';
import { runRenderBenchmark } from './render.ts';
import { runLabBenchmark } from './lab.ts';
import { labSection, labTargets, writeLabResult } from './lab-report.ts';
import {
  crawlSection,
  createSection,
  engineSection,
  evaluateTargets,
  machineInfo,
  queueSection,
  readSection,
  renderSection,
  RESULTS_DIR,
  targetsSection,
  writeResults,
  type BenchResults,
  type TargetPart,
} from './report.ts';
import { round } from './stats.ts';

const BENCHMARKS = ['engine', 'create', 'queue', 'read', 'crawl', 'render', 'crawl-scale', 'lab'] as const;
type Benchmark = (typeof BENCHMARKS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    reports: { type: 'string' },
    pages: { type: 'string' },
    engine: { type: 'string', default: 'sqlite' },
    'cpu-prof': { type: 'boolean', default: false },
    out: { type: 'string', default: RESULTS_DIR },
  },
});
const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};
if (values.quick && values.smoke) fail('choose --quick or --smoke, not both');
const mode: BenchMode = values.smoke ? 'smoke' : values.quick ? 'quick' : 'full';
// Without --only: every benchmark, but at full size not the read benchmark (a million reports: seeded
// once in 17-25 minutes, then about 7 minutes a database), which runs only when asked.
const selected = values.only
  ? values.only.split(',').map((name) => name.trim())
  : BENCHMARKS.filter((name) => (mode !== 'full' || name !== 'read') && name !== 'crawl-scale' && name !== 'lab');
const unknown = selected.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
if (unknown.length > 0) fail(`unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARKS.join(', ')}`);
const runs = (name: Benchmark) => selected.includes(name);
const reports = values.reports === undefined ? undefined : Number(values.reports.replaceAll('_', ''));
if (reports !== undefined && !(Number.isInteger(reports) && reports >= 100)) fail('--reports takes a whole number of reports, at least 100');
if (reports !== undefined && !runs('read')) fail('--reports sizes the read benchmark: add --only read');
const scalePages = values.pages === undefined ? CRAWL_SCALE_PAGES[mode] : Number(values.pages.replaceAll('_', '').replaceAll(',', ''));
if (!(Number.isInteger(scalePages) && scalePages >= 10 && scalePages <= CRAWL_SCALE_MAX_PAGES)) fail(`--pages takes a whole number of pages, 10 to ${CRAWL_SCALE_MAX_PAGES}`);
if ((values.pages !== undefined || values.engine !== 'sqlite') && !runs('crawl-scale')) fail('--pages and --engine size the crawl-scale benchmark: add --only crawl-scale');
if (values.engine !== 'sqlite' && values.engine !== 'postgres') fail('--engine takes sqlite or postgres');
const scaleEngine = values.engine as 'sqlite' | 'postgres';
const processOptions = values['cpu-prof'] ? { cpuProfDir: join(REPO_ROOT, 'bench/.cache/profiles') } : {};
const postgresUrl = process.env.DATABASE_URL?.match(/^postgres(ql)?:\/\//) ? process.env.DATABASE_URL : undefined;

const print = (section: string) => process.stdout.write(`\n${section}\n`);
const startedAt = performance.now();

// Every benchmark but the engine's runs the server as `npm start` does, from the build: make it first
// when dist/ is missing or older than src/ (incremental; seconds when little changed).
if (selected.some((name) => name !== 'engine')) {
  try {
    assertBuilt();
  } catch {
    print('dist/ is older than src/ (or missing): npm run build');
    const build = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/build.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (build.status !== 0) fail(`npm run build failed (${build.status ?? build.signal}): the benchmarks run the built server`);
    assertBuilt();
  }
}
const durations: Record<string, number> = {};
/** Runs one benchmark, timed. */
async function timed<T>(name: string, benchmark: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await benchmark();
  } finally {
    durations[name] = round((performance.now() - started) / 1000, 1);
  }
}
const results: Omit<BenchResults, 'targets'> = {
  generated_at: new Date().toISOString(),
  mode,
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  machine: machineInfo(),
  durations_s: durations,
};
print(
  `${results.command}: Node ${results.machine.node}, ${results.machine.cpu_model}, ${results.machine.cores} cores, ` +
    `load average ${results.machine.load_average.join(' ')}; running ${selected.join(', ')} (${mode})`,
);

if (runs('engine')) {
  results.engine = await timed('engine', () => runEngineBenchmark(mode));
  print(engineSection(results.engine));
}
if (runs('create') || runs('queue')) {
  if (!runs('create')) print('queue: running the create benchmark too; the queue\'s ratio is taken against its throughput.');
  results.create = await timed('create', () => runCreateBenchmark(mode, processOptions));
  print(createSection(results.create));
}
if (runs('queue')) {
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  // Throws when PAGEGRADE_REQUIRE_REDIS=1 and it does not answer, as the tests do.
  const redis = (await testRedisAvailable(redisUrl))
    ? { url: redisUrl }
    : { skipped: `no Redis answered at ${redisUrl} (set REDIS_URL): BullMQ not measured` };
  results.queue = await timed('queue', () => runQueueBenchmark(mode, results.create!, redis, processOptions));
  print(queueSection(results.queue));
}
if (runs('read')) {
  results.read = await timed('read', () => runReadBenchmark('sqlite', mode, { ...processOptions, reports }));
  print(readSection('read', results.read));
  if (postgresUrl) {
    results.read_postgres = await timed('read_postgres', () => runReadBenchmark('postgres', mode, { ...processOptions, postgresUrl, reports }));
    print(readSection('read_postgres', results.read_postgres));
  }
}
if (runs('crawl')) {
  results.crawl = await timed('crawl', () => runCrawlBenchmark(mode, processOptions));
  print(crawlSection(results.crawl));
}
if (runs('render')) {
  results.render = await timed('render', () => runRenderBenchmark(mode, processOptions));
  print(renderSection(results.render));
}
if (runs('crawl-scale')) {
  const scale = await timed('crawl-scale', () => runCrawlScaleBenchmark(scalePages, scaleEngine, processOptions));
  const targets = crawlScaleTargets(scale);
  print(crawlScaleSection(scale, targets));
  const file = writeCrawlScaleResult(scale, targets, values.out, { generated_at: results.generated_at, command: results.command, machine: results.machine, duration_s: durations['crawl-scale'] });
  print(`Wrote ${file}`);
  if (selected.length === 1) process.exit(0);
}
if (runs('lab')) {
  const lab = await timed('lab', () => runLabBenchmark(mode));
  if ('skipped' in lab) print(`lab: ${lab.skipped}`);
  else {
    const targets = labTargets(lab.result);
    print(labSection(lab.result, targets));
    print(`Wrote ${writeLabResult(lab.result, targets, values.out, { generated_at: results.generated_at, command: results.command, machine: results.machine, duration_s: durations.lab })}`);
  }
  if (selected.length === 1) process.exit(0);
}
durations.total = round((performance.now() - startedAt) / 1000, 1);

const modeFlag = mode === 'full' ? '' : ` --${mode}`;
/** Why a target's part did not run, and how to run it. */
function notRun(part: TargetPart): string {
  const benchmark = part.split('.')[0].replace('_postgres', '') as Benchmark;
  if (!runs(benchmark)) {
    return benchmark === 'read' && mode === 'full'
      ? 'runs only when asked: `npm run bench -- --only read` (a million reports, seeded once in 17-25 minutes and kept; then ' +
          'about 7 minutes a database; on PostgreSQL too with DATABASE_URL)'
      : `not asked for: \`npm run bench --${modeFlag} --only ${benchmark}\``;
  }
  if (part === 'read_postgres') return 'no PostgreSQL: set DATABASE_URL=postgres://... and the read benchmark runs on it too';
  if (part === 'queue.bullmq' && results.queue?.bullmq_skipped) return results.queue.bullmq_skipped;
  if (part === 'render' && results.render && 'skipped' in results.render) return results.render.skipped;
  return 'not measured';
}

const final: BenchResults = { ...results, targets: evaluateTargets(results, notRun) };
print(targetsSection(final.targets, durations));
const files = writeResults(final, values.out);
print(`Wrote ${files.json} and ${files.markdown}`);
