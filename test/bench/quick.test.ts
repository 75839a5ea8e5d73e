// `npm run bench -- --quick` runs every benchmark end to end, so they never rot. This checks
// that every metric the benchmarks promise is reported, never how fast anything is. The queue
// benchmark's BullMQ part runs on the test Redis when it answers (and must with PAGEGRADE_REQUIRE_REDIS=1).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { chromiumInstalled } from '../support/chromium.ts';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const QUERIES = ['show', 'list_default', 'list_search', 'list_filtered', 'projects_list'];
/** The read benchmark also runs on PostgreSQL when DATABASE_URL points at one: the test gives it the test server. */
const READS = process.env.TEST_DATABASE_URL ? ['read', 'read_postgres'] : ['read'];
const QUEUE_ENGINES = (await testRedisAvailable()) ? ['embedded', 'bullmq'] : ['embedded'];

type Json = Record<string, any>;

function expectPositive(object: Json, path: string): void {
  const value = path.split('.').reduce<any>((node, key) => node?.[key], object);
  expect(Number.isFinite(value) && value > 0, `${path} = ${value}`).toBe(true);
}

describe('npm run bench -- --quick', () => {
  let outDir: string;
  let results: Json;
  let markdown: string;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'pagegrade-bench-test-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
      // The Redis this test looked for: where it does not answer, the benchmark skips BullMQ and says so.
      REDIS_URL: TEST_REDIS_URL,
    };
    await promisify(execFile)('npm', ['run', '--silent', 'bench', '--', '--quick', '--out', outDir], {
      cwd: REPO_ROOT,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    results = JSON.parse(await readFile(join(outDir, 'latest.json'), 'utf8')) as Json;
    markdown = await readFile(join(outDir, 'latest.md'), 'utf8');
    // About 4 minutes alone on a 2-core VM (every part, both databases and queue engines, at small
    // sizes), and the suite's other files run beside it.
  }, 600_000);

  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('records the machine it ran on', () => {
    expect(results.mode).toBe('quick');
    expect(results.machine.node).toBe(process.version);
    expect(results.machine.cpu_model).toEqual(expect.any(String));
    expectPositive(results, 'machine.cores');
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

  it('reports every read query against its query floor', () => {
    for (const read of READS) {
      expectPositive(results, `${read}.seed.reports`);
      for (const query of QUERIES) {
        // load_cpu_us: what the load process spent per answer, a check that a run was not disturbed.
        for (const metric of ['rps', 'p50_ms', 'p99_ms', 'load_cpu_us', 'ratio_vs_query_floor']) {
          expectPositive(results, `${read}.${query}.${metric}`);
        }
        for (const metric of ['rps', 'p50_ms', 'p99_ms']) expectPositive(results, `${read}.${query}.query_floor.${metric}`);
        // At least the key lookup and the read itself.
        expect(results[read][query].query_floor.statements_per_request).toBeGreaterThanOrEqual(2);
      }
      expect(markdown).toContain(`### Read (${read})`);
    }
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

  it('judges each target of the issue', () => {
    const metrics = (results.targets as Json[]).map((target) => target.metric);
    expect(metrics).toContain('engine.ratio_vs_parse');
    expect(metrics).toContain('create.ratio_vs_fetch_parse');
    for (const engine of QUEUE_ENGINES) expect(metrics).toContain(`queue.${engine}.ratio_vs_create`);
    if (chromiumInstalled) expect(metrics).toContain('render.ratio_vs_browser_floor');
    for (const read of READS) {
      for (const query of QUERIES) {
        expect(metrics).toContain(`${read}.${query}.p99_ms`);
        // Show's ratio is reported (above) but not a target: the issue sets it for lists.
        if (query !== 'show') expect(metrics).toContain(`${read}.${query}.ratio_vs_query_floor`);
      }
    }
    for (const target of results.targets as Json[]) expect(typeof target.met).toBe('boolean');
  });
});
