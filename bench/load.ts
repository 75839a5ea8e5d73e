// HTTP load from this process with autocannon: a fixed number of requests or a fixed duration over
// keep-alive connections, each request chosen by `next()`. Latencies are kept at full precision
// (autocannon's own histogram rounds to whole milliseconds). Any non-2xx answer or connection error
// fails the run: a benchmark of error responses would measure the wrong thing.
import autocannon, { type RequestSpec } from 'autocannon';
import { latency, round, type Latency } from './stats.ts';

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
}

const REQUEST_TIMEOUT_S = 60;

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let bytes = 0;
  const started = performance.now();
  const instance = autocannon({
    url: options.origin,
    connections: options.connections,
    // autocannon stops at its first tick after `amount` answers: ticks every 100 ms, not every second.
    ...(options.amount === undefined ? { duration: options.durationS } : { amount: options.amount, sampleInt: 100 }),
    timeout: REQUEST_TIMEOUT_S,
    requests: [
      {
        setupRequest: (request) => {
          const chosen = options.next();
          return { ...request, ...chosen, headers: { ...request.headers, ...chosen.headers } };
        },
      },
    ],
  });
  // Timed to the last answer, not to that tick.
  let lastAnswer = started;
  instance.on('response', (_client, statusCode, responseBytes, responseTimeMs) => {
    if (statusCode >= 200 && statusCode < 300) {
      latencies.push(responseTimeMs);
      bytes += responseBytes;
      lastAnswer = performance.now();
    }
  });
  const result = await instance;
  const seconds = (lastAnswer - started) / 1000;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `load on ${options.origin} had ${result.non2xx} non-2xx answers and ${result.errors} errors ` +
        `(status counts ${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  if (latencies.length === 0) throw new Error(`load on ${options.origin} completed no request`);
  return {
    requests: latencies.length,
    seconds: round(seconds, 2),
    rps: round(latencies.length / seconds, 1),
    ...latency(latencies),
    response_bytes: Math.round(bytes / latencies.length),
  };
}
