// The load generator, run as a process of its own. Apart from the benchmark's orchestrating process,
// whose heap holds the other benchmarks' leftovers and whose timers and children would share the
// load's event loop, the load it makes depends on nothing else. Two kinds of load, each sending a plan
// of requests drawn in advance, in order, from its start again when it runs out:
// - closed loop: autocannon over `connections` keep-alive connections, each sending its next request
//   once the last is answered;
// - open loop (open-loop-load.mjs): requests on a fixed schedule, whatever the answers.
// Started with one JSON argument, it makes one closed-loop load, prints its output as one JSON line
// and exits. Started with an IPC channel (bench/load.ts startLoadRounds), it makes one load per message
// ({ kind: 'closed' | 'open', input }) and answers each with its output, until disconnected: the read
// benchmark's many short loads, without a process started for each.
// Plain JavaScript, so it starts without a TypeScript loader.
// Closed-loop input: { planFile, origin, connections, durationS | amount, warmUpS?, shift? } (`shift`:
// the plan's first request); the plan file holds a JSON array of requests. Its output: each 2xx
// answer's latency at full precision (autocannon's own histogram rounds to whole milliseconds), their
// bytes, the seconds to the last answer, the CPU this process spent, the failures, which bench/load.ts
// judges, and when (wall clock, ms since the epoch) the measured load began, for a caller that times
// more than the answers.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { openLoop } from './open-loop-load.mjs';

const REQUEST_TIMEOUT_S = 60;

/** Each plan file's requests, read once. */
const plans = new Map();
function readPlan(planFile) {
  let plan = plans.get(planFile);
  if (!plan) {
    plan = JSON.parse(readFileSync(planFile, 'utf8'));
    if (plan.length === 0) throw new Error('a load needs at least one planned request');
    plans.set(planFile, plan);
  }
  return plan;
}

async function closedLoop(input, plan) {
  let sent = input.shift ?? 0;
  const load = (timing) =>
    autocannon({
      url: input.origin,
      connections: input.connections,
      ...timing,
      // autocannon stops at its first tick after the duration (or `amount` answers): a tick every 100 ms,
      // not every second, so a load of 0.2 s takes 0.2 s (and one of 3 s at most 3.1).
      sampleInt: 100,
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
  const instance = load(input.amount === undefined ? { duration: input.durationS } : { amount: input.amount });
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
  return {
    latencies,
    bytes,
    seconds: (lastAnswer - started) / 1000,
    cpuMicros: cpu.user + cpu.system,
    non2xx: outcome.non2xx,
    errors: outcome.errors,
    statusCodeStats: outcome.statusCodeStats,
    startedAtMs,
  };
}

if (process.send) {
  process.on('message', ({ kind, input }) => {
    const load = kind === 'open' ? openLoop : closedLoop;
    load(input, readPlan(input.planFile)).then(
      (output) => process.send(output),
      (error) => {
        process.stderr.write(`${error?.stack ?? error}\n`);
        process.exit(1);
      },
    );
  });
} else {
  const input = JSON.parse(process.argv[2]);
  console.log(JSON.stringify(await closedLoop(input, readPlan(input.planFile))));
}
