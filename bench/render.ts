// Render benchmark: POST /api/v1/reports with render=1 through the real server (its own process,
// SQLite, the default browser pool: one browser, PAGEGRADE_RENDER_CONCURRENCY pages at once) for corpus
// pages served on 127.0.0.1, from twice as many concurrent clients as the pool renders pages at once, so
// that the pool never waits while a report is checked and stored. Each report fetches and checks the raw
// page and renders it in Chromium through the guarded proxy, a fresh context per page.
// Floor: the same pages, in the same order and at the same concurrency, loaded in the same Chromium
// by playwright-core and read as HTML, in a process of its own (render-floor.ts). The browsers' peak
// memory (PSS of every process under the server) is sampled throughout.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { chromiumAvailable } from '../src/render/chromium.ts';
import { processTreeMb } from '../src/render/process-memory.ts';
import { loadCorpus } from '../test/support/corpus.ts';
import { startCorpusSite } from './corpus-site.ts';
import { runLoad, type LoadResult } from './load.ts';
import type { BenchMode } from './mode.ts';
import { BENCH_ADMIN_KEY, startPagegrade } from './pagegrade-server.ts';
import { CLOSE_CONNECTION, cpuSeconds, runToCompletion, type ProcessOptions } from './processes.ts';
import { seededRandom, shuffled } from './random.ts';
import { round, type Throughput } from './stats.ts';

/**
 * Pages rendered before the measured ones (the corpus's last, in the shuffled order), and measured
 * (its first). Full: half the corpus, 132 pages (2.5-3.5 minutes for the server and its floor at 1.3-2.2
 * pages/s), so that `npm run bench` stays within 10 minutes; the whole corpus takes 5-6 at those rates.
 */
const SIZES: Record<BenchMode, { warmUp: number; amount: number }> = {
  smoke: { warmUp: 1, amount: 2 },
  quick: { warmUp: 2, amount: 10 },
  full: { warmUp: 8, amount: 132 },
};
/** Each sample reads the PSS of every browser process (80-100 ms of CPU here): often enough for a peak, rarely enough to cost little. */
const MEMORY_SAMPLE_MS = 1_000;

export interface RenderResult extends LoadResult {
  /** pages the server's pool renders at once (in one browser), and the floor's pages at once */
  concurrency: number;
  /** clients sending creates at once */
  clients: number;
  /** measured reports whose rendering failed (a timeout, a cap): they count, as the floor's failures do */
  render_failures: number;
  /** highest PSS of every browser process under the server during the measured run */
  browser_pool_peak_mb: number;
  /** CPU the server process (not its browsers) used during the measured run, per report */
  server_cpu_ms_per_report: number;
  floor: Throughput & { failed: number };
  /** rendered creates per second / floor pages per second; target at least 0.6 */
  ratio_vs_browser_floor: number;
}

export type RenderBenchOutcome = { result: RenderResult } | { skipped: string };

/** Samples the memory of every process under `pid` until stopped; returns the highest sample. */
function samplePoolMemory(pid: number): { stop(): Promise<number> } {
  let peak = 0;
  let sampling = Promise.resolve();
  const sample = () => {
    sampling = sampling.then(async () => {
      peak = Math.max(peak, (await processTreeMb(pid, { withRoot: false })) ?? 0);
    });
  };
  const timer = setInterval(sample, MEMORY_SAMPLE_MS);
  return {
    async stop() {
      clearInterval(timer);
      sample();
      await sampling;
      return peak;
    },
  };
}

/** How many of the account's reports have a rendering that failed. */
async function renderFailures(origin: string): Promise<number> {
  const headers = { authorization: `Bearer ${BENCH_ADMIN_KEY}`, accept: 'application/json', ...CLOSE_CONNECTION };
  let failures = 0;
  for (let page = 1; ; page++) {
    const list = (await (await fetch(`${origin}/api/v1/reports?per_page=100&page=${page}`, { headers })).json()) as {
      data: { id: number }[];
      meta: { last_page: number };
    };
    for (const { id } of list.data) {
      const report = (await (await fetch(`${origin}/api/v1/reports/${id}`, { headers })).json()) as { data: { rendered: { error?: string } | null } };
      if (report.data.rendered === null || report.data.rendered.error !== undefined) failures += 1;
    }
    if (page >= list.meta.last_page) return failures;
  }
}

export async function runRenderBenchmark(mode: BenchMode, options: ProcessOptions = {}): Promise<RenderBenchOutcome> {
  const config = loadConfig(process.env);
  if (!chromiumAvailable(config.chromiumPath)) {
    return { skipped: `no Chromium at ${config.chromiumPath} (apt-get install chromium, or set PAGEGRADE_CHROMIUM_PATH): rendering not measured` };
  }
  const size = SIZES[mode];
  const concurrency = config.renderConcurrency;
  const site = await startCorpusSite(loadCorpus());
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-render-'));
  try {
    const urls = shuffled(seededRandom(3), site.pageUrls);
    const measuredUrls = Array.from({ length: size.amount }, (_, index) => urls[index % urls.length]);
    const warmUpUrls = urls.slice(-size.warmUp);
    const floor = await runToCompletion<RenderResult['floor']>(
      'bench/render-floor.ts',
      { chromiumPath: config.chromiumPath, urls: measuredUrls, warmUpUrls, concurrency, timeoutMs: config.fetchTimeoutMs },
      options,
    );

    const server = await startPagegrade(`sqlite:${join(directory, 'render.db')}`, options);
    try {
      const createLoad = (list: string[]) =>
        runLoad({
          origin: server.origin,
          // autocannon needs at least as many requests as connections (the smaller warm-ups have fewer).
          connections: Math.min(list.length, 2 * concurrency),
          amount: list.length,
          plan: list.map((url) => ({
            method: 'POST',
            path: '/api/v1/reports',
            headers: { authorization: `Bearer ${BENCH_ADMIN_KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ url, render: 1 }),
          })),
        });
      // Starts the pool's browsers, as a server that renders has them running.
      await createLoad(warmUpUrls);
      const failuresBefore = await renderFailures(server.origin);
      const memory = samplePoolMemory(server.pid);
      const cpuBefore = cpuSeconds(server.pid);
      const measured = await createLoad(measuredUrls);
      const serverCpu = cpuSeconds(server.pid) - cpuBefore;
      const peakMb = await memory.stop();
      return {
        result: {
          ...measured,
          concurrency,
          clients: 2 * concurrency,
          render_failures: (await renderFailures(server.origin)) - failuresBefore,
          browser_pool_peak_mb: peakMb,
          server_cpu_ms_per_report: round((serverCpu * 1000) / measured.requests, 1),
          floor,
          // From the exact rates: rps is rounded to 0.1, which at 1-2 pages/s moves the ratio by up to 8%.
          ratio_vs_browser_floor: round(measured.requests / measured.seconds / (floor.requests / floor.seconds), 3),
        },
      };
    } finally {
      await server.stop();
    }
  } finally {
    await site.close();
    await rm(directory, { recursive: true, force: true });
  }
}
