// `npm run bench -- --smoke` runs every benchmark end to end on tiny inputs, so they never rot. This
// checks that every part runs, reports every metric the benchmarks promise and judges (or says why it
// did not measure) every target, never how fast anything is. A system test: each part starts its
// servers (the build, dist/, as every system test does), floors and load generators as processes.
// Most of its time is those processes starting, so the parts run as two `--only` runs at once, each
// printing every target (the other run's as not run).
// The queue benchmark's BullMQ part runs on the test Redis when it answers (and must with
// PAGEGRADE_REQUIRE_REDIS=1); the read benchmark runs on the test PostgreSQL too with TEST_DATABASE_URL.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../support/processes.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { chromiumInstalled } from '../support/chromium.ts';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const QUERIES = ['show', 'list_default', 'list_search', 'list_filtered', 'projects_list'];
/** The read benchmark also runs on PostgreSQL when DATABASE_URL points at one: the test gives it the test server. */
const READS = process.env.TEST_DATABASE_URL ? ['read', 'read_postgres'] : ['read'];
const QUEUE_ENGINES = (await testRedisAvailable()) ? ['embedded', 'bullmq'] : ['embedded'];
/** The two runs, about as long as each other. */
const RUNS = ['engine,create,queue,render', 'read,crawl'];
/** Every target of the project, each printed by every run. */
const TARGETS = [
  'engine.ratio_vs_parse',
  'create.ratio_vs_fetch_parse',
  'queue.embedded.ratio_vs_create',
  'queue.bullmq.ratio_vs_create',
  ...['read', 'read_postgres'].flatMap((read) => QUERIES.map((query) => `${read}.${query}.open_loop.p99_ms`)),
  'crawl.ratio_vs_fetch_parse',
  'crawl.rss_peak_ratio',
  'render.ratio_vs_browser_floor',
];

type Json = Record<string, any>;

function expectPositive(object: Json, path: string): void {
  const value = path.split('.').reduce<any>((node, key) => node?.[key], object);
  expect(Number.isFinite(value) && value > 0, `${path} = ${value}`).toBe(true);
}

describe('npm run bench -- --smoke', () => {
  let outDir: string;
  /** Both runs' latest.json and latest.md, in RUNS order. */
  let runs: { results: Json; markdown: string }[];
  /** Both runs' results as one, as a run of every part would have them. */
  let results: Json;
  let markdown: string;

  beforeAll(async () => {
    // Built by npm run test:system; otherwise each run would build it, both at once.
    assertBuilt();
    outDir = await mkdtemp(join(tmpdir(), 'pagegrade-bench-test-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
      // The Redis this test looked for: where it does not answer, the benchmark skips BullMQ and says so.
      REDIS_URL: TEST_REDIS_URL,
    };
    runs = await Promise.all(
      RUNS.map(async (only, index) => {
        const out = join(outDir, String(index));
        await promisify(execFile)('npm', ['run', '--silent', 'bench', '--', '--smoke', '--only', only, '--out', out], {
          cwd: REPO_ROOT,
          env,
          maxBuffer: 16 * 1024 * 1024,
        });
        return {
          results: JSON.parse(await readFile(join(out, 'latest.json'), 'utf8')) as Json,
          markdown: await readFile(join(out, 'latest.md'), 'utf8'),
        };
      }),
    );
    results = Object.assign({}, ...runs.map((run) => run.results));
    markdown = runs.map((run) => run.markdown).join('\n');
    // 30-40 s on a quiet 2-core VM, most of it processes starting; minutes when the machine is busy.
  }, 600_000);

  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('records the machine it ran on, and how long each part took', () => {
    for (const [index, { results: run }] of runs.entries()) {
      expect(run.mode).toBe('smoke');
      expect(run.machine.node).toBe(process.version);
      expect(run.machine.cpu_model).toEqual(expect.any(String));
      expectPositive(run, 'machine.cores');
      expectPositive(run, 'durations_s.total');
      for (const part of RUNS[index].split(',')) expectPositive(run, `durations_s.${part}`);
    }
  });

  it('reports the engine against a bare parse', () => {
    for (const metric of ['pages_per_s', 'mb_per_s', 'p50_ms', 'p99_ms', 'peak_heap_mb', 'ratio_vs_parse', 'parse.pages_per_s']) {
      expectPositive(results, `engine.${metric}`);
    }
    expect(markdown).toContain('engine.ratio_vs_parse = ');
  });

  it('reports creating reports through the server against fetching and parsing', () => {
    for (const metric of ['rps', 'p50_ms', 'p99_ms', 'server_rss_peak_mb', 'server_cpu_ms_per_report', 'ratio_vs_fetch_parse', 'floor.rps']) {
      expectPositive(results, `create.${metric}`);
    }
    expect(markdown).toContain('create.ratio_vs_fetch_parse = ');
  });

  it('reports background analysis on each queue engine against create, and the queue\'s own cost', () => {
    expectPositive(results, 'queue.create_rps');
    expectPositive(results, 'queue.create_cpu_ms_per_report');
    for (const engine of QUEUE_ENGINES) {
      for (const metric of ['reports_per_s', 'seconds', 'ratio_vs_create', 'cpu_ms_per_report', 'accepted.rps', 'accepted.p50_ms', 'accepted.p99_ms']) {
        expectPositive(results, `queue.${engine}.${metric}`);
      }
      for (const metric of ['ms_per_job', 'jobs_per_s', 'sequential.p50_ms', 'sequential.p99_ms']) {
        expectPositive(results, `queue.${engine}.overhead.${metric}`);
      }
      expect(markdown).toContain(`queue.${engine}.ratio_vs_create = `);
    }
    if (!QUEUE_ENGINES.includes('bullmq')) {
      expect(results.queue.bullmq).toBeNull();
      expect(markdown).toContain(results.queue.bullmq_skipped);
    }
  });

  it('reports every read query at an open-loop rate, and closed loop against its query floor', () => {
    for (const read of READS) {
      expectPositive(results, `${read}.seed.reports`);
      expect(results[read].open_loop_rate).toBe(200);
      for (const query of QUERIES) {
        const open = results[read][query].open_loop;
        expect(open.offered_rps).toBe(200);
        for (const metric of ['achieved_rps', 'requests', 'p50_ms', 'p99_ms', 'max_ms', 'max_in_flight', 'load_cpu_us']) {
          expectPositive(results, `${read}.${query}.open_loop.${metric}`);
        }
        expect(open.send_lag_p99_ms).toBeGreaterThanOrEqual(0);
        // Every request answered 200 on a tiny database: an error here is a broken part, not a slow one.
        expect(open.errors, JSON.stringify(open.error_kinds)).toBe(0);
        // load_cpu_us: what the load process spent per answer, a check that a run was not disturbed.
        for (const metric of ['rps', 'p50_ms', 'p99_ms', 'response_bytes', 'load_cpu_us']) {
          expectPositive(results, `${read}.${query}.closed_loop.${metric}`);
        }
        for (const metric of ['rps', 'p50_ms', 'p99_ms']) expectPositive(results, `${read}.${query}.query_floor.${metric}`);
        expectPositive(results, `${read}.${query}.ratio_vs_query_floor`);
        // At least the key lookup and the read itself.
        expect(results[read][query].query_floor.statements_per_request).toBeGreaterThanOrEqual(2);
      }
      expect(markdown).toContain(`### Read (${read})`);
    }
  });

  it('reports site audits against fetching and parsing their pages, and their memory', () => {
    expect(results.crawl.sizes).toHaveLength(2);
    for (const index of [0, 1]) {
      for (const metric of ['pages', 'seconds', 'pages_per_s', 'server_rss_peak_mb', 'server_cpu_ms_per_page', 'floor_pages_per_s', 'ratio_vs_fetch_parse']) {
        expectPositive(results, `crawl.sizes.${index}.${metric}`);
      }
      expect(results.crawl.sizes[index].pages_crawled).toBe(results.crawl.sizes[index].pages);
    }
    for (const metric of ['ratio_vs_fetch_parse', 'rss_peak_ratio', 'cpu_ratio_vs_fetch_parse']) expectPositive(results, `crawl.${metric}`);
    expect(markdown).toContain('crawl.ratio_vs_fetch_parse = ');
  });

  it('reports rendered creates against only loading the same pages in Chromium, and the browsers\' memory', () => {
    if (!chromiumInstalled) {
      expect(results.render.skipped).toContain('no Chromium');
      return;
    }
    for (const metric of ['rps', 'p50_ms', 'p99_ms', 'browser_pool_peak_mb', 'ratio_vs_browser_floor', 'floor.rps', 'floor.p50_ms']) {
      expectPositive(results, `render.result.${metric}`);
    }
    expect(results.render.result.render_failures).toBeGreaterThanOrEqual(0);
    expect(markdown).toContain('render.ratio_vs_browser_floor = ');
  });

  it('prints every target in each run: judged where that run measured it, and otherwise why not', () => {
    const unmeasurable = new Set([
      ...(QUEUE_ENGINES.includes('bullmq') ? [] : ['queue.bullmq.ratio_vs_create']),
      ...(READS.includes('read_postgres') ? [] : QUERIES.map((query) => `read_postgres.${query}.open_loop.p99_ms`)),
      ...(chromiumInstalled ? [] : ['render.ratio_vs_browser_floor']),
    ]);
    const judgedIn = new Map<string, number>();
    for (const [index, run] of runs.entries()) {
      const targets = run.results.targets as Json[];
      expect(targets.map((target) => target.metric)).toEqual(TARGETS);
      expect(run.markdown).toContain('### Targets');
      for (const target of targets) {
        expect(run.markdown).toContain(`| ${target.metric} |`);
        if (target.met === null) {
          expect(target.value).toBeNull();
          expect(target.not_run, target.metric).toEqual(expect.stringMatching(/\S/));
          continue;
        }
        expect(typeof target.met, target.metric).toBe('boolean');
        expect(Number.isFinite(target.value), target.metric).toBe(true);
        // Smoke inputs are not the targets' own.
        expect(target.conditions, target.metric).toContain('smoke mode');
        judgedIn.set(target.metric, (judgedIn.get(target.metric) ?? 0) + 1);
        // The part it belongs to ran in this run.
        expect(RUNS[index].split(','), target.metric).toContain(target.metric.split('.')[0].replace('_postgres', ''));
      }
    }
    for (const metric of TARGETS) expect(judgedIn.get(metric) ?? 0, metric).toBe(unmeasurable.has(metric) ? 0 : 1);
    // The read targets show the closed loop beside the open loop.
    const allTargets = runs.flatMap((run) => run.results.targets as Json[]);
    for (const read of READS) {
      const target = allTargets.find((candidate) => candidate.metric === `${read}.show.open_loop.p99_ms` && candidate.met !== null);
      expect(target?.beside).toContain('closed loop at 10 connections');
    }
  });
});
