// HTTP load on a server, made by a process of its own (load-process.mjs): a fixed number of requests or
// a fixed duration over keep-alive connections (closed loop), or (through startLoadRounds) a fixed
// rate (open loop, open-loop.ts). The requests are drawn in advance by the caller, a plan sent in
// order and from its start again when it runs out (the read benchmark's plan is long enough that
// cycling it changes nothing it measures: see PLANNED_REQUESTS in read.ts). Any non-2xx answer or
// connection error fails a closed-loop run: a benchmark of error responses would measure the wrong
// thing. An open-loop run reports its errors instead, as part of what it measures.
import type { RequestSpec } from 'autocannon';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLoopResult, OPEN_LOOP_TIMEOUT_S, type OpenLoopOptions, type OpenLoopOutput, type OpenLoopResult } from './open-loop.ts';
import { runToCompletion, startRounds } from './processes.ts';
import { pooledThroughput, type Throughput } from './stats.ts';

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
  /** the requests, in the order they are sent */
  plan: RequestSpec[];
  /** every answer must have this status (otherwise any 2xx will do) */
  status?: number;
}

export interface LoadResult extends Throughput {
  /** mean response size, headers included */
  response_bytes: number;
  /** CPU µs the load generator spent per answer: comparable runs spend about the same */
  load_cpu_us: number;
}

/** What the load process prints. */
interface LoadOutput {
  latencies: number[];
  bytes: number;
  seconds: number;
  cpuMicros: number;
  non2xx: number;
  errors: number;
  statusCodeStats: Record<string, { count: number }>;
  startedAtMs: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  return (await runTimedLoad(options)).result;
}

/**
 * runLoad, also saying when its measured load began (performance.timeOrigin + performance.now() in
 * the load process: comparable with the same in this process, which runs on the same machine).
 */
export async function runTimedLoad(options: LoadOptions): Promise<{ result: LoadResult; startedAtMs: number }> {
  const samples = await runLoadSamples(options);
  return { result: loadResult([samples]), startedAtMs: samples.startedAtMs };
}

/** One load's raw measurements, which loadResult sums with others' (the read benchmark's rounds). */
export interface LoadSamples {
  latencies: number[];
  seconds: number;
  bytes: number;
  cpuMicros: number;
  startedAtMs: number;
}

export async function runLoadSamples(options: LoadOptions): Promise<LoadSamples> {
  const { plan, status, ...load } = options;
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-load-'));
  let output: LoadOutput;
  try {
    const planFile = join(directory, 'plan.json');
    await writeFile(planFile, JSON.stringify(plan));
    output = await runToCompletion<LoadOutput>('bench/load-process.mjs', { ...load, planFile });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  return checkedSamples(options, output);
}

/** A load's samples, or the error that makes them meaningless. */
function checkedSamples({ origin, status }: { origin: string; status?: number }, output: LoadOutput): LoadSamples {
  if (output.non2xx > 0 || output.errors > 0) {
    throw new Error(
      `load on ${origin} had ${output.non2xx} non-2xx answers and ${output.errors} errors ` +
        `(status counts ${JSON.stringify(output.statusCodeStats)})`,
    );
  }
  const otherStatus = Object.keys(output.statusCodeStats).filter((code) => status !== undefined && code !== String(status));
  if (otherStatus.length > 0) {
    throw new Error(`load on ${origin} expected only ${status} answers; status counts ${JSON.stringify(output.statusCodeStats)}`);
  }
  if (output.latencies.length === 0) throw new Error(`load on ${origin} completed no request`);
  const { latencies, seconds, bytes, cpuMicros, startedAtMs } = output;
  return { latencies, seconds, bytes, cpuMicros, startedAtMs };
}

/** The result of one or more loads taken together: every answer's latency, over their seconds summed. */
export function loadResult(loads: readonly LoadSamples[]): LoadResult {
  const pooled = pooledThroughput(loads);
  const sum = (field: 'bytes' | 'cpuMicros') => loads.reduce((total, load) => total + load[field], 0);
  return {
    ...pooled,
    response_bytes: Math.round(sum('bytes') / pooled.requests),
    load_cpu_us: Math.round(sum('cpuMicros') / pooled.requests),
  };
}

/** A load process kept for many loads, one after another, each on a plan written to a file once. */
export interface LoadRounds {
  /** A closed-loop load, as runLoadSamples, from the plan's request `shift` on. */
  closed(options: Omit<LoadOptions, 'plan'> & { planFile: string; shift?: number }): Promise<LoadSamples>;
  open(options: OpenLoopOptions & { planFile: string }): Promise<OpenLoopResult>;
  stop(): Promise<void>;
}

/** Starts a load process for many loads (the read benchmark's: two a query, and more in rounds). */
export function startLoadRounds(): LoadRounds {
  const child = startRounds<{ kind: 'closed' | 'open'; input: object }, LoadOutput | OpenLoopOutput>('bench/load-process.mjs', {});
  return {
    async closed({ status, ...input }) {
      return checkedSamples({ origin: input.origin, status }, (await child.round({ kind: 'closed', input })) as LoadOutput);
    },
    async open({ planFile, ...options }) {
      const output = (await child.round({ kind: 'open', input: { ...options, planFile, timeoutS: OPEN_LOOP_TIMEOUT_S } })) as OpenLoopOutput;
      return openLoopResult(options, output);
    },
    stop: () => child.stop(),
  };
}
