// The queue's own cost per job, run as a process of its own: an empty job kind on one engine, with
// the producer and the worker in this one process (as a server running its own jobs is), so what
// is timed is the engine (its storage round trips, claiming, bookkeeping) and nothing of an analysis.
// - batch: `jobs` empty jobs enqueued by `concurrency` producers at once (as the create benchmark's
//   clients) while the queue runs `concurrency` at once; first enqueue to last handler finished.
// - sequential: `sequential` jobs one after another, each meeting an idle queue: enqueue -> handler
//   finished.
// Embedded on a fresh migrated SQLite file; BullMQ on the given Redis, under a name and prefix of its
// own that are removed afterwards.
// Input (one JSON argument): { engine, redisUrl?, jobs, sequential, warmUp, concurrency }. Prints
// its OverheadResult as JSON.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { createDb } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createBullmqQueue } from '../src/queue/bullmq-queue.ts';
import { createEmbeddedQueue } from '../src/queue/embedded-queue.ts';
import type { JobQueue } from '../src/queue/job-queue.ts';
import { latency, round, type Latency } from './stats.ts';

interface OverheadInput {
  engine: 'embedded' | 'bullmq';
  redisUrl?: string;
  jobs: number;
  sequential: number;
  warmUp: number;
  concurrency: number;
}

export interface OverheadResult {
  jobs: number;
  /** first enqueue to last completion, over jobs */
  ms_per_job: number;
  jobs_per_s: number;
  sequential: Latency & { jobs: number };
}

type EmptyJobs = { 'bench.empty': { n: number } };

/** The queue under test, and how to remove everything it stored. */
async function openEngine(input: OverheadInput): Promise<{ queue: JobQueue<EmptyJobs>; drop(): Promise<void> }> {
  if (input.engine === 'embedded') {
    const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-queue-'));
    const handle = createDb(`sqlite:${join(directory, 'queue.db')}`);
    await migrateToLatest(handle.db);
    return {
      queue: createEmbeddedQueue<EmptyJobs>(handle.db),
      async drop() {
        await handle.destroy();
        await rm(directory, { recursive: true, force: true });
      },
    };
  }
  const redisUrl = input.redisUrl!;
  const name = `bench-overhead-${process.pid}-${randomBytes(4).toString('hex')}`;
  const prefix = 'pagegrade-bench';
  return {
    queue: createBullmqQueue<EmptyJobs>({ redisUrl, name, prefix }),
    async drop() {
      const { hostname, port } = new URL(redisUrl);
      const inspector = new Queue(name, { connection: { host: hostname, port: Number(port) || 6379 }, prefix });
      await inspector.obliterate({ force: true });
      await inspector.close();
    },
  };
}

const sleep = (ms: number) => new Promise<void>((wait) => setTimeout(wait, ms));

async function measure(input: OverheadInput, queue: JobQueue<EmptyJobs>): Promise<OverheadResult> {
  // Each handler run calls the waiter of its job's number.
  const waiters = new Map<number, () => void>();
  let finished = 0;
  let allFinished: (() => void) | undefined;
  let target = 0;
  queue.start(
    {
      'bench.empty': async ({ n }) => {
        waiters.get(n)?.();
        finished += 1;
        if (finished === target) allFinished?.();
      },
    },
    { concurrency: input.concurrency },
  );

  /** `amount` jobs from `concurrency` producers; resolves with the ms from the first enqueue to the last job run. */
  async function batch(amount: number): Promise<number> {
    finished = 0;
    target = amount;
    const done = new Promise<void>((resolve) => (allFinished = resolve));
    let next = 0;
    const started = performance.now();
    const producer = async () => {
      while (next < amount) await queue.enqueue('bench.empty', { n: -1 - next++ });
    };
    await Promise.all(Array.from({ length: input.concurrency }, producer));
    await done;
    return performance.now() - started;
  }

  await batch(input.warmUp);
  const batchMs = await batch(input.jobs);

  const sequentialMs: number[] = [];
  for (let n = 0; n < input.sequential; n++) {
    const ran = new Promise<void>((resolve) => waiters.set(n, resolve));
    const started = performance.now();
    await queue.enqueue('bench.empty', { n });
    await ran;
    sequentialMs.push(performance.now() - started);
    waiters.delete(n);
    // The previous job's bookkeeping (its deletion, BullMQ's completion) ends before the next arrives,
    // so each job meets an idle queue.
    await sleep(5);
  }
  return {
    jobs: input.jobs,
    ms_per_job: round(batchMs / input.jobs, 3),
    jobs_per_s: round((input.jobs * 1000) / batchMs, 1),
    sequential: { jobs: input.sequential, ...latency(sequentialMs) },
  };
}

const input = JSON.parse(process.argv[2]!) as OverheadInput;
const engine = await openEngine(input);
let result: OverheadResult;
try {
  result = await measure(input, engine.queue);
} finally {
  await engine.queue.close();
  await engine.drop();
}
console.log(JSON.stringify(result));
