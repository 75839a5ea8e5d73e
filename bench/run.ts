// `npm run bench [-- --quick] [--only engine,create,queue,read,crawl,render] [--cpu-prof] [--out dir]`: runs the
// benchmarks, prints each table with its ratio against the floor measured in the same run, and writes
// latest.json and latest.md to bench/results/ (or --out). The floors: a bare parse (engine), fetch +
// bare parse (create), and for each read query the query floor, the SQL statements its requests run in
// the server run straight through the driver. The read benchmark also runs on PostgreSQL when
// DATABASE_URL points at one. The queue benchmark is judged against the create benchmark's
// throughput, so it runs create too; its BullMQ part runs on REDIS_URL (or a Redis on
// 127.0.0.1:6379) when one answers. The crawl benchmark's floor is fetch + bare parse of the same
// generated site's pages at the crawl's concurrency. The render benchmark's floor only loads the same
// corpus pages in the same Chromium and reads their DOM, at the pool's concurrency; without Chromium
// it is skipped and says so. --cpu-prof writes a V8 profile of the servers under test and the floors
// (each a child process) to bench/.cache/profiles; profile the in-process engine benchmark with
// `node --cpu-prof --import tsx bench/run.ts --only engine`.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { testRedisAvailable } from '../test/support/redis.ts';
import { runCrawlBenchmark } from './crawl.ts';
import { runCreateBenchmark } from './create.ts';
import { runEngineBenchmark } from './engine.ts';
import { REPO_ROOT } from './processes.ts';
import { runQueueBenchmark } from './queue.ts';
import { runReadBenchmark } from './read.ts';
import { runRenderBenchmark } from './render.ts';
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
} from './report.ts';

const BENCHMARKS = ['engine', 'create', 'queue', 'read', 'crawl', 'render'] as const;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    out: { type: 'string', default: RESULTS_DIR },
  },
});
const selected = values.only ? values.only.split(',').map((name) => name.trim()) : [...BENCHMARKS];
const unknown = selected.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARKS.join(', ')}\n`);
  process.exit(2);
}
const quick = values.quick;
const processOptions = values['cpu-prof'] ? { cpuProfDir: join(REPO_ROOT, 'bench/.cache/profiles') } : {};
const postgresUrl = process.env.DATABASE_URL?.match(/^postgres(ql)?:\/\//) ? process.env.DATABASE_URL : undefined;

const print = (section: string) => process.stdout.write(`\n${section}\n`);
const results: Omit<BenchResults, 'targets'> = {
  generated_at: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  machine: machineInfo(),
};
print(
  `${results.command}: Node ${results.machine.node}, ${results.machine.cpu_model}, ${results.machine.cores} cores, ` +
    `load average ${results.machine.load_average.join(' ')}`,
);

if (selected.includes('engine')) {
  results.engine = runEngineBenchmark(quick);
  print(engineSection(results.engine));
}
if (selected.includes('create') || selected.includes('queue')) {
  if (!selected.includes('create')) print('queue: running the create benchmark too; the queue\'s ratio is taken against its throughput.');
  results.create = await runCreateBenchmark(quick, processOptions);
  print(createSection(results.create));
}
if (selected.includes('queue')) {
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  // Throws when PAGEGRADE_REQUIRE_REDIS=1 and it does not answer, as the tests do.
  const redis = (await testRedisAvailable(redisUrl))
    ? { url: redisUrl }
    : { skipped: `no Redis answered at ${redisUrl} (set REDIS_URL): BullMQ not measured` };
  results.queue = await runQueueBenchmark(quick, results.create!, redis, processOptions);
  print(queueSection(results.queue));
}
if (selected.includes('read')) {
  results.read = await runReadBenchmark('sqlite', quick, processOptions);
  print(readSection('read', results.read));
  if (postgresUrl) {
    results.read_postgres = await runReadBenchmark('postgres', quick, { ...processOptions, postgresUrl });
    print(readSection('read_postgres', results.read_postgres));
  }
}
if (selected.includes('crawl')) {
  results.crawl = await runCrawlBenchmark(quick, processOptions);
  print(crawlSection(results.crawl));
}
if (selected.includes('render')) {
  results.render = await runRenderBenchmark(quick, processOptions);
  print(renderSection(results.render));
}

const final: BenchResults = { ...results, targets: evaluateTargets(results) };
print(targetsSection(final.targets, final.mode));
const files = writeResults(final, values.out);
print(`Wrote ${files.json} and ${files.markdown}`);
