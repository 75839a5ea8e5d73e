// Create benchmark: POST /api/v1/reports through the real server (its own process, SQLite) for
// corpus pages served on 127.0.0.1, from concurrent clients in a load process of its own (load.ts).
// Floor: the same pages, in the same order and at the same concurrency, fetched with undici and
// parsed, in a process of its own. Each report fetches its page; the origin's robots.txt, 404 probe,
// favicon and sitemap are fetched once and cached, as they are for any site.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { loadCorpus } from '../test/support/corpus.ts';
import { startCorpusSite } from './corpus-site.ts';
import { runLoad, type LoadResult } from './load.ts';
import type { BenchMode } from './mode.ts';
import { BENCH_ADMIN_KEY, startPagegrade } from './pagegrade-server.ts';
import { cpuSeconds, runToCompletion, sampleRss, type ProcessOptions } from './processes.ts';
import { seededRandom, shuffled } from './random.ts';
import { round, type Throughput } from './stats.ts';

export const CREATE_CONNECTIONS = 16;
/** Creates (and the floor's fetches) before the measured ones, and measured. autocannon needs at least as many as connections. */
const SIZES: Record<BenchMode, { warmUp: number; amount: number }> = {
  smoke: { warmUp: CREATE_CONNECTIONS, amount: CREATE_CONNECTIONS },
  quick: { warmUp: 48, amount: 300 },
  full: { warmUp: 200, amount: 3000 },
};

export interface CreateResult extends LoadResult {
  connections: number;
  /** the server's PAGEGRADE_ANALYSIS_THREADS (its default: one per core but one, at most four) */
  analysis_threads: number;
  /** highest resident memory of the server process during the measured run */
  server_rss_peak_mb: number;
  /**
   * CPU the server process (all its threads) used during the measured run, per report: unlike the
   * throughput, hardly changed by other work on the machine.
   */
  server_cpu_ms_per_report: number;
  floor: Throughput;
  /** create throughput / floor throughput; target at least 0.5 */
  ratio_vs_fetch_parse: number;
}

export async function runCreateBenchmark(mode: BenchMode, options: ProcessOptions = {}): Promise<CreateResult> {
  const size = SIZES[mode];
  const site = await startCorpusSite(loadCorpus());
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-create-'));
  try {
    const urls = shuffled(seededRandom(1), site.pageUrls);
    const floor = await runToCompletion<CreateResult['floor']>(
      'bench/fetch-parse-floor.ts',
      { urls, warmUp: size.warmUp, amount: size.amount, concurrency: CREATE_CONNECTIONS },
      options,
    );

    const server = await startPagegrade(`sqlite:${join(directory, 'create.db')}`, options);
    try {
      const createLoad = (amount: number) =>
        runLoad({
          origin: server.origin,
          connections: CREATE_CONNECTIONS,
          amount,
          plan: Array.from({ length: amount }, (_, index) => ({
            method: 'POST',
            path: '/api/v1/reports',
            headers: { authorization: `Bearer ${BENCH_ADMIN_KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ url: urls[index % urls.length] }),
          })),
        });
      await createLoad(size.warmUp);
      const rss = sampleRss(server.pid);
      const cpuBefore = cpuSeconds(server.pid);
      const measured = await createLoad(size.amount);
      const serverCpu = cpuSeconds(server.pid) - cpuBefore;
      const serverRssPeak = rss.stop();
      return {
        ...measured,
        connections: CREATE_CONNECTIONS,
        // The server reads the same environment this process has.
        analysis_threads: loadConfig(process.env).analysisThreads,
        server_rss_peak_mb: serverRssPeak,
        server_cpu_ms_per_report: round((serverCpu * 1000) / measured.requests, 2),
        floor,
        ratio_vs_fetch_parse: round(measured.rps / floor.rps, 3),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await site.close();
    await rm(directory, { recursive: true, force: true });
  }
}
