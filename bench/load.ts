// HTTP load on a server, made by a process of its own (load-process.mjs): a fixed number of requests or
// a fixed duration over keep-alive connections. The requests are drawn here in advance from `next()`:
// `amount` of them, or for a timed load a plan of PLANNED_REQUESTS sent over and over, enough that
// cycling it changes nothing the benchmarks measure (the read benchmark's accounts, projects, verdicts
// and report ids number 15,000 combinations at most; a request comes round again only after 16,383
// others, past what the kept list answers remember: 1,953 misses, about 1,600 filtered pages). Any
// non-2xx answer or connection error fails the run: a benchmark of error responses would measure the
// wrong thing.
import type { RequestSpec } from 'autocannon';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToCompletion } from './processes.ts';
import { throughput, type Throughput } from './stats.ts';

export interface LoadOptions {
  /** http://127.0.0.1:<port> */
  origin: string;
  connections: number;
  /** run for this long... */
  durationS?: number;
  /** ...or until this many requests have been answered */
  amount?: number;
  /** first load for this long, from the same plan, unmeasured */
  warmUpS?: number;
  next: () => RequestSpec;
}

export interface LoadResult extends Throughput {
  /** mean response size, headers included */
  response_bytes: number;
  /** CPU µs the load generator spent per answer: comparable runs spend about the same */
  load_cpu_us: number;
}

export const PLANNED_REQUESTS = 16_384;

/** What the load process prints. */
interface LoadOutput {
  latencies: number[];
  bytes: number;
  seconds: number;
  cpuMicros: number;
  non2xx: number;
  errors: number;
  statusCodeStats: Record<string, { count: number }>;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { next, ...load } = options;
  const plan = Array.from({ length: options.amount ?? PLANNED_REQUESTS }, next);
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-load-'));
  let output: LoadOutput;
  try {
    const planFile = join(directory, 'plan.json');
    await writeFile(planFile, JSON.stringify(plan));
    output = await runToCompletion<LoadOutput>('bench/load-process.mjs', { ...load, planFile });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  if (output.non2xx > 0 || output.errors > 0) {
    throw new Error(
      `load on ${options.origin} had ${output.non2xx} non-2xx answers and ${output.errors} errors ` +
        `(status counts ${JSON.stringify(output.statusCodeStats)})`,
    );
  }
  const answers = output.latencies.length;
  if (answers === 0) throw new Error(`load on ${options.origin} completed no request`);
  return {
    ...throughput(output.latencies, output.seconds),
    response_bytes: Math.round(output.bytes / answers),
    load_cpu_us: Math.round(output.cpuMicros / answers),
  };
}
