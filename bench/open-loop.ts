// Open-loop load on a server (open-loop-load.mjs, in the load process): a fixed rate of requests,
// each timed from when it was due, so queueing in the server (or in front of it) is in the latencies.
// Unlike the closed-loop load, errors do not fail the run: they are part of what is measured, and a
// target judged on these figures needs none.
import { percentile, round } from './stats.ts';

export interface OpenLoopOptions {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** requests a second, sent on schedule */
  rate: number;
  /** the first seconds' requests are sent on the same schedule but not measured */
  warmUpS: number;
  durationS: number;
  /** keep-alive connections at most; more requests due at once wait (timed) for one */
  connections: number;
}

export interface OpenLoopResult {
  /** requests a second sent, on schedule */
  offered_rps: number;
  /** 2xx answers a second: the measured ones, from the first one's due time to the last answer */
  achieved_rps: number;
  /** measured requests sent */
  requests: number;
  /** requests without a 2xx answer (non-2xx, connection errors, unanswered at the deadline), warm-up included */
  errors: number;
  /** errors by kind, when there are any */
  error_kinds?: Record<string, number>;
  /** from each request's scheduled send time to the last byte of its answer */
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** how late the generator itself sent the requests (part of their latency): a high figure says the load machine was busy */
  send_lag_p99_ms: number;
  /** most requests in flight at once */
  max_in_flight: number;
  connections: number;
  /** CPU µs the generator spent per measured request */
  load_cpu_us: number;
}

/** What the load process answers an open-loop load with. */
export interface OpenLoopOutput {
  requests: number;
  latencies: number[];
  sendLags: number[];
  errors: Record<string, number>;
  seconds: number;
  maxInFlight: number;
  cpuMicros: number;
}

/** At most this long after the last request is due, the load ends; requests unanswered by then are errors. */
export const OPEN_LOOP_TIMEOUT_S = 10;

export function openLoopResult(options: OpenLoopOptions, output: OpenLoopOutput): OpenLoopResult {
  const errors = Object.values(output.errors).reduce((sum, count) => sum + count, 0);
  const answered = output.latencies;
  // No answer at all: every latency figure is the deadline's, at least.
  const none = OPEN_LOOP_TIMEOUT_S * 1000;
  const at = (p: number) => (answered.length > 0 ? round(percentile(answered, p), 3) : none);
  return {
    offered_rps: options.rate,
    achieved_rps: output.seconds > 0 ? round(answered.length / output.seconds, 1) : 0,
    requests: output.requests,
    errors,
    ...(errors > 0 ? { error_kinds: output.errors } : {}),
    p50_ms: at(50),
    p99_ms: at(99),
    max_ms: answered.length > 0 ? round(answered.reduce((most, sample) => Math.max(most, sample)), 3) : none,
    send_lag_p99_ms: round(percentile(output.sendLags, 99), 3),
    max_in_flight: output.maxInFlight,
    connections: options.connections,
    load_cpu_us: Math.round(output.cpuMicros / output.requests),
  };
}
