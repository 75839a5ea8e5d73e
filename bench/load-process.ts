// The load generator, run as a process of its own: autocannon over keep-alive connections, sending a
// plan of requests drawn in advance, in order, from its start again when it runs out. Apart from the
// benchmark's orchestrating process, whose heap holds the other benchmarks' leftovers and whose
// timers and children would share autocannon's event loop, the load it makes depends on nothing else.
// Latencies are kept at full precision (autocannon's own histogram rounds to whole milliseconds). Any
// non-2xx answer or connection error fails the run: a benchmark of error responses would measure the
// wrong thing.
// Input (one JSON argument): { planFile, origin, connections, durationS | amount }; the plan file holds
// a JSON array of requests. Prints a LoadResult as JSON.
import { readFileSync } from 'node:fs';
import autocannon, { type RequestSpec } from 'autocannon';
import type { LoadResult } from './load.ts';
import { latency, round } from './stats.ts';

interface LoadInput {
  planFile: string;
  origin: string;
  connections: number;
  durationS?: number;
  amount?: number;
}

const REQUEST_TIMEOUT_S = 60;

const input = JSON.parse(process.argv[2]) as LoadInput;
const plan = JSON.parse(readFileSync(input.planFile, 'utf8')) as RequestSpec[];
if (plan.length === 0) throw new Error('a load needs at least one planned request');

let sent = 0;
const latencies: number[] = [];
let bytes = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const instance = autocannon({
  url: input.origin,
  connections: input.connections,
  // autocannon stops at its first tick after `amount` answers: ticks every 100 ms, not every second.
  ...(input.amount === undefined ? { duration: input.durationS } : { amount: input.amount, sampleInt: 100 }),
  timeout: REQUEST_TIMEOUT_S,
  requests: [
    {
      setupRequest: (request) => {
        const chosen = plan[sent++ % plan.length];
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
const outcome = await instance;
const cpu = process.cpuUsage(cpuBefore);
if (outcome.non2xx > 0 || outcome.errors > 0) {
  throw new Error(
    `load on ${input.origin} had ${outcome.non2xx} non-2xx answers and ${outcome.errors} errors ` +
      `(status counts ${JSON.stringify(outcome.statusCodeStats)})`,
  );
}
if (latencies.length === 0) throw new Error(`load on ${input.origin} completed no request`);
const seconds = (lastAnswer - started) / 1000;
const result: LoadResult = {
  requests: latencies.length,
  seconds: round(seconds, 2),
  rps: round(latencies.length / seconds, 1),
  ...latency(latencies),
  response_bytes: Math.round(bytes / latencies.length),
  load_cpu_us: Math.round((cpu.user + cpu.system) / latencies.length),
};
console.log(JSON.stringify(result));
