// Open-loop load, for the load process (load-process.mjs): requests sent on a fixed schedule, `rate`
// a second, whether or not the earlier ones have been answered, over up to `connections` keep-alive
// connections (undici's Pool opens them as they are needed). A request due while every connection is
// busy waits in the pool's queue, and that wait counts: each latency runs from the request's scheduled
// send time to the last byte of its answer, so a server that falls behind shows it in every later
// request's latency instead of slowing the load down (no coordinated omission, as a closed loop such
// as autocannon has). Requests are the plan's, in order, from its start again when it runs out.
//
// Bounded: exactly rate × (warmUpS + durationS) requests, the first warmUpS seconds' unmeasured, and
// at most timeoutS after the last one is due; a request still unanswered then is an error.
// Input: { origin, rate, warmUpS, durationS, connections, timeoutS }. Output: the measured requests'
// latencies (ms, answered with a 2xx), how late the generator sent them (its own lag, counted in their
// latencies too), the errors (every request sent, warm-up included, without a 2xx answer: by status,
// connection error, or unanswered), the seconds from the first measured request's scheduled time to
// the last measured answer, the most requests in flight at once, and the CPU this process spent.
import { Pool } from 'undici';

export async function openLoop(input, plan) {
  if (!(input.rate > 0)) throw new Error('an open-loop load needs a rate above 0');
  const timeoutMs = input.timeoutS * 1000;
  const pool = new Pool(input.origin, {
    connections: input.connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  const intervalMs = 1000 / input.rate;
  const warmUp = Math.round(input.rate * input.warmUpS);
  const total = warmUp + Math.round(input.rate * input.durationS);
  if (total === warmUp) throw new Error('an open-loop load needs at least one measured request');

  const latencies = [];
  const sendLags = [];
  const errors = {};
  let settled = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let lastMeasuredAnswer = 0;
  const countError = (kind) => (errors[kind] = (errors[kind] ?? 0) + 1);

  const cpuBefore = process.cpuUsage();
  // A moment after now, so the first requests are not late before the schedule has begun.
  const start = performance.now() + 20;
  const scheduledAt = (index) => start + index * intervalMs;
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));

  const send = (index) => {
    const scheduled = scheduledAt(index);
    const measured = index >= warmUp;
    if (measured) sendLags.push(performance.now() - scheduled);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const spec = plan[index % plan.length];
    pool
      .request({ method: spec.method ?? 'GET', path: spec.path, headers: spec.headers, body: spec.body })
      .then(async ({ statusCode, body }) => {
        // Read to the last byte: the answer is complete only then.
        for await (const _chunk of body);
        const answered = performance.now();
        if (statusCode < 200 || statusCode >= 300) return countError(`status ${statusCode}`);
        if (!measured) return;
        latencies.push(answered - scheduled);
        lastMeasuredAnswer = Math.max(lastMeasuredAnswer, answered);
      })
      .catch((error) => countError(error?.code ?? error?.name ?? 'error'))
      .finally(() => {
        inFlight -= 1;
        settled += 1;
        if (settled === total) finish();
      });
  };

  let next = 0;
  const tick = () => {
    const now = performance.now();
    while (next < total && scheduledAt(next) <= now) send(next++);
    if (next < total) setTimeout(tick, Math.max(0, scheduledAt(next) - performance.now()));
  };
  setTimeout(tick, Math.max(0, start - performance.now()));

  const deadline = setTimeout(finish, scheduledAt(total - 1) - performance.now() + timeoutMs);
  await finished;
  clearTimeout(deadline);
  const unanswered = total - settled;
  const cpu = process.cpuUsage(cpuBefore);
  const output = {
    requests: total - warmUp,
    latencies,
    sendLags,
    errors: unanswered > 0 ? { ...errors, unanswered } : { ...errors },
    seconds: latencies.length > 0 ? (lastMeasuredAnswer - scheduledAt(warmUp)) / 1000 : 0,
    maxInFlight,
    cpuMicros: cpu.user + cpu.system,
  };
  // Requests still unanswered fail now; they are counted above.
  await pool.destroy();
  return output;
}
