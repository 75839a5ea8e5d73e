// HTTP load on a server, made by a process of its own (load-process.ts): a fixed number of requests or
// a fixed duration over keep-alive connections. The requests are drawn here in advance from `next()`:
// `amount` of them, or for a timed load a plan of PLANNED_REQUESTS sent over and over, enough that
// cycling it changes nothing the benchmarks measure (the read benchmark's accounts, projects, verdicts
// and report ids number 15,000 combinations at most).
import type { RequestSpec } from 'autocannon';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToCompletion } from './processes.ts';
import type { Latency } from './stats.ts';

export interface LoadOptions {
  /** http://127.0.0.1:<port> */
  origin: string;
  connections: number;
  /** run for this long... */
  durationS?: number;
  /** ...or until this many requests have been answered */
  amount?: number;
  next: () => RequestSpec;
}

export interface LoadResult extends Latency {
  requests: number;
  seconds: number;
  rps: number;
  /** mean response size, headers included */
  response_bytes: number;
  /** CPU µs the load generator spent per answer: comparable runs spend about the same */
  load_cpu_us: number;
}

export const PLANNED_REQUESTS = 65_536;

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { next, ...load } = options;
  const plan = Array.from({ length: options.amount ?? PLANNED_REQUESTS }, next);
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-load-'));
  try {
    const planFile = join(directory, 'plan.json');
    await writeFile(planFile, JSON.stringify(plan));
    return await runToCompletion<LoadResult>('bench/load-process.ts', { ...load, planFile });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
