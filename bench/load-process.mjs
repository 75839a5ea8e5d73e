// The load generator, run as a process of its own: autocannon over keep-alive connections, sending a
// plan of requests drawn in advance, in order, from its start again when it runs out. Apart from the
// benchmark's orchestrating process, whose heap holds the other benchmarks' leftovers and whose
// timers and children would share autocannon's event loop, the load it makes depends on nothing else.
// Plain JavaScript, so it starts without a TypeScript loader (it is started for every load).
// Input (one JSON argument): { planFile, origin, connections, durationS | amount, warmUpS? }; the plan file holds
// a JSON array of requests. Prints one JSON line: each 2xx answer's latency at full precision
// (autocannon's own histogram rounds to whole milliseconds), their bytes, the seconds to the last
// answer, the CPU this process spent, the failures, which bench/load.ts judges, and when (wall clock,
// ms since the epoch) the measured load began, for a caller that times more than the answers.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const REQUEST_TIMEOUT_S = 60;

const input = JSON.parse(process.argv[2]);
const plan = JSON.parse(readFileSync(input.planFile, 'utf8'));
if (plan.length === 0) throw new Error('a load needs at least one planned request');

let sent = 0;
const load = (timing) =>
  autocannon({
    url: input.origin,
    connections: input.connections,
    ...timing,
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

// A warm-up first, in the same process (a process less to start per measured load); not measured.
if (input.warmUpS > 0) await load({ duration: input.warmUpS });

const latencies = [];
let bytes = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const startedAtMs = performance.timeOrigin + started;
// autocannon stops at its first tick after `amount` answers: ticks every 100 ms, not every second.
const instance = load(input.amount === undefined ? { duration: input.durationS } : { amount: input.amount, sampleInt: 100 });
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
console.log(
  JSON.stringify({
    latencies,
    bytes,
    seconds: (lastAnswer - started) / 1000,
    cpuMicros: cpu.user + cpu.system,
    non2xx: outcome.non2xx,
    errors: outcome.errors,
    statusCodeStats: outcome.statusCodeStats,
    startedAtMs,
  }),
);
