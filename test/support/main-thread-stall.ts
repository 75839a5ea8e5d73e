// How long the main thread was kept from its timers while `work` ran: what decides whether GET /health
// answers in time. On a shared machine a timer can fire late because other processes hold the cores,
// though this thread was idle; so the stall is measured as the main thread's own CPU time between two
// turns of a 10 ms timer (Linux: /proc/self/task/<pid>/stat, in 10 ms clock ticks), beside how late the
// timer fired. Without /proc, the lateness is all there is.
import { existsSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_S = 100;
const STAT = `/proc/self/task/${process.pid}/stat`;

function mainThreadCpuMs(): number | null {
  if (!existsSync(STAT)) return null;
  const stat = readFileSync(STAT, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

export interface Stall<T> {
  result: T;
  /** The longest the main thread worked between two timer turns (the timer's lateness without /proc). */
  busyMs: number;
  /** The most a 10 ms timer fired late. */
  lateMs: number;
  ticks: number;
}

export async function mainThreadStall<T>(work: () => Promise<T>): Promise<Stall<T>> {
  let lateMs = 0;
  let busyMs = 0;
  let ticks = 0;
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    lateMs = Math.max(lateMs, now - last - 10);
    busyMs = Math.max(busyMs, cpu === null || lastCpu === null ? now - last - 10 : cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    ticks++;
  }, 10);
  try {
    return { result: await work(), busyMs, lateMs, ticks };
  } finally {
    clearInterval(timer);
  }
}
