// A process that runs queue jobs and nothing else, for the tests that SIGKILL one mid-job
// (test/queue/queue-kill.test.ts). Its one job kind, test.sleep, appends a line to RUN_LOG when it
// starts and when it ends, so the test can tell which process ran what, and when.
// Settings from the environment: QUEUE_ENGINE (embedded|bullmq), DATABASE_URL or REDIS_URL,
// QUEUE_NAME, QUEUE_PREFIX, RUN_LOG. Timings are short so recovery happens within a test.
import { appendFileSync } from 'node:fs';
import { createDb } from '../../src/db/database.ts';
import { createBullmqQueue } from '../../src/queue/bullmq-queue.ts';
import { createEmbeddedQueue } from '../../src/queue/embedded-queue.ts';
import type { JobQueue } from '../../src/queue/job-queue.ts';

type Kinds = { 'test.sleep': { label: string; ms: number } };

const env = process.env;
const log = (event: string, label: string) =>
  appendFileSync(env.RUN_LOG!, `${JSON.stringify({ event, label, pid: process.pid, at: Date.now() })}\n`);
const onError = (error: unknown, context: { message: string }) =>
  process.stderr.write(`${context.message}: ${error instanceof Error ? error.message : String(error)}\n`);

const database = env.QUEUE_ENGINE === 'embedded' ? createDb(env.DATABASE_URL) : undefined;
const queue: JobQueue<Kinds> =
  database !== undefined
    ? createEmbeddedQueue(database.db, { leaseMs: 1_500, pollMs: 100, retryDelayMs: 20, onError })
    : createBullmqQueue({
        redisUrl: env.REDIS_URL!,
        name: env.QUEUE_NAME,
        prefix: env.QUEUE_PREFIX,
        lockDurationMs: 1_500,
        stalledIntervalMs: 500,
        retryDelayMs: 20,
        onError,
      });

queue.start(
  {
    'test.sleep': async ({ label, ms }) => {
      log('start', label);
      await new Promise((wait) => setTimeout(wait, ms));
      log('end', label);
    },
  },
  { concurrency: 1 },
);
process.stdout.write('ready\n');

process.once('SIGTERM', () => {
  void queue
    .close()
    .then(() => database?.destroy())
    .then(() => process.exit(0));
});
