// Queue benchmark: POST /api/v1/reports with async=1 through the real server (its own
// process, SQLite) for the create benchmark's corpus pages, in its order, from the same number of
// clients; timed from the first request until every report is done, against the create benchmark's
// throughput in the same run. Each engine analyses as many reports at once as create does:
// - embedded: the server runs the jobs itself, PAGEGRADE_WORKERS = CREATE_CONNECTIONS;
// - bullmq: the server only takes requests (PAGEGRADE_WORKERS=0) and one `pagegrade worker
//   --concurrency CREATE_CONNECTIONS` process runs them, both on Redis under a prefix of their own.
// Beside each, the CPU the server and worker spent per report (the figure the ratio follows when the
// benchmark keeps every core busy), and the queue's own cost per empty job (queue-overhead.ts, a
// process of its own).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { loadCorpus } from '../test/support/corpus.ts';
import { startCorpusSite } from './corpus-site.ts';
import { CREATE_CONNECTIONS } from './create.ts';
import { runTimedLoad } from './load.ts';
import type { BenchMode } from './mode.ts';
import { BENCH_ADMIN_KEY, startPagegrade, startPagegradeWorker } from './pagegrade-server.ts';
import { CLOSE_CONNECTION, cpuSeconds, runToCompletion, type ChildService, type ProcessOptions } from './processes.ts';
import type { OverheadResult } from './queue-overhead.ts';
import { seededRandom, shuffled } from './random.ts';
import { round, type Throughput } from './stats.ts';

const SIZES: Record<BenchMode, { warmUp: number; amount: number; overheadWarmUp: number; overheadJobs: number; sequential: number }> = {
  smoke: { warmUp: CREATE_CONNECTIONS, amount: CREATE_CONNECTIONS, overheadWarmUp: 8, overheadJobs: 32, sequential: 8 },
  quick: { warmUp: 48, amount: 300, overheadWarmUp: 50, overheadJobs: 300, sequential: 50 },
  full: { warmUp: 200, amount: 2000, overheadWarmUp: 200, overheadJobs: 2000, sequential: 200 },
};
/** Often enough that the time to the last report is known within a few percent of the run. */
const POLL_MS = 100;
/** A run in which no report got done for this long has stalled. */
const STALL_MS = 60_000;

export type QueueEngineName = 'embedded' | 'bullmq';

export interface QueueEngineResult {
  /** who runs the jobs */
  workers: string;
  reports: number;
  /** first request to the last report done */
  seconds: number;
  reports_per_s: number;
  /** reports_per_s / the create benchmark's rps in the same run; target at least 0.8 */
  ratio_vs_create: number;
  /** the 202 answers: their rate while they were sent, and latency */
  accepted: Throughput;
  /** CPU the server and the worker (all their threads) used from the first request to the last report done, per report */
  cpu_ms_per_report: number;
  overhead: OverheadResult;
}

export interface QueueResult {
  connections: number;
  /** the create benchmark's rps the ratios are taken against */
  create_rps: number;
  /** and its server's CPU per report, beside each engine's */
  create_cpu_ms_per_report: number;
  embedded: QueueEngineResult;
  /** null when no Redis answered (see bullmq_skipped) */
  bullmq: QueueEngineResult | null;
  bullmq_skipped?: string;
}

/** The settings every process of one benchmarked installation shares. */
interface Installation {
  workers: string;
  start(databaseUrl: string, options: ProcessOptions): Promise<{ origin: string; processes: ChildService[] }>;
  cleanUp(): Promise<void>;
}

function installation(engine: QueueEngineName, redisUrl: string | undefined): Installation {
  // Required on PostgreSQL only; harmless here, and keeps the benchmark working if that changes.
  const shared = { PAGEGRADE_SECRET_KEY: randomBytes(32).toString('base64url') };
  if (engine === 'embedded') {
    return {
      workers: `the server, PAGEGRADE_WORKERS=${CREATE_CONNECTIONS}`,
      async start(databaseUrl, options) {
        const server = await startPagegrade(databaseUrl, options, { ...shared, PAGEGRADE_WORKERS: String(CREATE_CONNECTIONS) });
        return { origin: server.origin, processes: [server] };
      },
      async cleanUp() {},
    };
  }
  const prefix = `pagegrade-bench-${process.pid}-${randomBytes(4).toString('hex')}`;
  const env = { ...shared, REDIS_URL: redisUrl!, PAGEGRADE_QUEUE_PREFIX: prefix };
  return {
    workers: `one \`pagegrade worker --concurrency ${CREATE_CONNECTIONS}\` (server PAGEGRADE_WORKERS=0)`,
    async start(databaseUrl, options) {
      // The server first: it migrates the database the worker then opens.
      const server = await startPagegrade(databaseUrl, options, { ...env, PAGEGRADE_WORKERS: '0' });
      try {
        const worker = await startPagegradeWorker(databaseUrl, CREATE_CONNECTIONS, options, env);
        return { origin: server.origin, processes: [server, worker] };
      } catch (error) {
        await server.stop();
        throw error;
      }
    },
    async cleanUp() {
      // The server's queue is BullMQ's default name under the installation's prefix.
      const { hostname, port } = new URL(redisUrl!);
      const queue = new Queue('pagegrade', { connection: { host: hostname, port: Number(port) || 6379 }, prefix });
      await queue.obliterate({ force: true });
      await queue.close();
    },
  };
}

async function api<T>(origin: string, path: string): Promise<T> {
  const response = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${BENCH_ADMIN_KEY}`, ...CLOSE_CONNECTION } });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

const countInState = async (origin: string, state: string) =>
  (await api<{ meta: { total: number } }>(origin, `/api/v1/reports?state=${state}&per_page=10`)).meta.total;

/**
 * Polls until `expected` reports are done; resolves with when (ms since the epoch) it saw them.
 * Any failed report fails the benchmark: it would measure the wrong thing.
 */
async function allDone(origin: string, expected: number): Promise<number> {
  let lastDone = -1;
  let lastProgress = Date.now();
  for (;;) {
    const done = await countInState(origin, 'done');
    const at = performance.timeOrigin + performance.now();
    const failed = await countInState(origin, 'failed');
    if (failed > 0) {
      const example = await api<{ data: { url: string; last_error: { message: string } | null }[] }>(
        origin,
        '/api/v1/reports?state=failed&per_page=1',
      );
      const report = example.data[0];
      throw new Error(`${failed} async reports failed; e.g. ${report?.url}: ${report?.last_error?.message}`);
    }
    if (done >= expected) return at;
    if (done !== lastDone) {
      lastDone = done;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > STALL_MS) {
      throw new Error(`${done} of ${expected} reports done, and none more in ${STALL_MS / 1000} s`);
    }
    await new Promise((wait) => setTimeout(wait, POLL_MS));
  }
}

/** `amount` async creates, the corpus pages in order; resolves with the 202s and the seconds until all were done. */
async function createAsync(origin: string, urls: string[], amount: number, doneBefore: number) {
  const loading = runTimedLoad({
    origin,
    connections: CREATE_CONNECTIONS,
    amount,
    status: 202,
    plan: Array.from({ length: amount }, (_, index) => ({
      method: 'POST',
      path: '/api/v1/reports',
      headers: { authorization: `Bearer ${BENCH_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: urls[index % urls.length], async: 1 }),
    })),
  });
  // Polled while the load runs; a failed load rejects before the polling could stall.
  const [load, doneAt] = await Promise.all([loading, allDone(origin, doneBefore + amount)]);
  return { accepted: load.result, seconds: (doneAt - load.startedAtMs) / 1000 };
}

async function runEngine(
  engine: QueueEngineName,
  redisUrl: string | undefined,
  mode: BenchMode,
  createRps: number,
  options: ProcessOptions,
): Promise<QueueEngineResult> {
  const size = SIZES[mode];
  const setup = installation(engine, redisUrl);
  const site = await startCorpusSite(loadCorpus());
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-queue-'));
  let measured: Awaited<ReturnType<typeof createAsync>>;
  let cpuMs: number;
  try {
    const urls = shuffled(seededRandom(1), site.pageUrls);
    const { origin, processes } = await setup.start(`sqlite:${join(directory, 'queue.db')}`, options);
    try {
      await createAsync(origin, urls, size.warmUp, 0);
      const cpu = () => processes.reduce((sum, child) => sum + cpuSeconds(child.pid), 0);
      const cpuBefore = cpu();
      measured = await createAsync(origin, urls, size.amount, size.warmUp);
      cpuMs = (cpu() - cpuBefore) * 1000;
    } finally {
      for (const child of processes.reverse()) await child.stop();
    }
  } finally {
    await site.close();
    await rm(directory, { recursive: true, force: true });
    await setup.cleanUp();
  }
  // Once the servers are gone: the empty jobs run with nothing else of the benchmark beside them.
  const overhead = await runToCompletion<OverheadResult>(
    'bench/queue-overhead.ts',
    { engine, redisUrl, jobs: size.overheadJobs, sequential: size.sequential, warmUp: size.overheadWarmUp, concurrency: CREATE_CONNECTIONS },
    options,
  );
  const reportsPerS = size.amount / measured.seconds;
  return {
    workers: setup.workers,
    reports: size.amount,
    seconds: round(measured.seconds, 2),
    reports_per_s: round(reportsPerS, 1),
    ratio_vs_create: round(reportsPerS / createRps, 3),
    accepted: measured.accepted,
    cpu_ms_per_report: round(cpuMs / size.amount, 2),
    overhead,
  };
}

/** `redis`: the Redis BullMQ runs on, or why BullMQ is skipped. */
export async function runQueueBenchmark(
  mode: BenchMode,
  create: { rps: number; server_cpu_ms_per_report: number },
  redis: { url: string } | { skipped: string },
  options: ProcessOptions = {},
): Promise<QueueResult> {
  const embedded = await runEngine('embedded', undefined, mode, create.rps, options);
  const bullmq = 'url' in redis ? await runEngine('bullmq', redis.url, mode, create.rps, options) : null;
  return {
    connections: CREATE_CONNECTIONS,
    create_rps: create.rps,
    create_cpu_ms_per_report: create.server_cpu_ms_per_report,
    embedded,
    bullmq,
    ...('skipped' in redis ? { bullmq_skipped: redis.skipped } : {}),
  };
}
