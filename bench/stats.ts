// Small numeric helpers shared by the benchmarks.

/** The nearest-rank percentile (0 < p <= 100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export interface Latency {
  p50_ms: number;
  p99_ms: number;
}

export function latency(samplesMs: readonly number[]): Latency {
  return { p50_ms: round(percentile(samplesMs, 50), 3), p99_ms: round(percentile(samplesMs, 99), 3) };
}

export interface Throughput extends Latency {
  requests: number;
  seconds: number;
  rps: number;
}

/** Requests done, their rate and latency, from each request's latency and the seconds they took in all. */
export function throughput(latenciesMs: readonly number[], seconds: number): Throughput {
  return {
    requests: latenciesMs.length,
    seconds: round(seconds, 2),
    rps: round(latenciesMs.length / seconds, 1),
    ...latency(latenciesMs),
  };
}

/** Several runs' samples taken together: every latency, over the runs' seconds summed. */
export function pooledThroughput(runs: readonly { latencies: readonly number[]; seconds: number }[]): Throughput {
  return throughput(
    runs.flatMap((run) => run.latencies),
    runs.reduce((seconds, run) => seconds + run.seconds, 0),
  );
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export const MB = 1_000_000;
