// The Redis engine: one BullMQ queue, one job name per kind, and a BullMQ Worker in every process
// that runs jobs (`pagegrade worker`, servers unless PAGEGRADE_WORKERS=0). Retries, their backoff,
// locks and the recovery of jobs whose worker died (stalled jobs) are BullMQ's own.
import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { MAX_ATTEMPTS, errorText, giveUp, type JobHandlers, type JobKinds, type JobQueue, type QueueErrorReporter } from './job-queue.ts';

export interface BullmqQueueOptions {
  redisUrl: string;
  /** The queue's name; every process that shares work must use the same one. */
  name?: string;
  /** Prefix of the queue's Redis keys (BullMQ's `prefix`), so other data in the same Redis stays apart. */
  prefix?: string;
  /** Wait before a failed run's retry, doubled for each further one (BullMQ's exponential backoff). */
  retryDelayMs?: number;
  /**
   * How long a worker's lock on a running job lasts (BullMQ renews it at half that). A worker that
   * dies leaves its job to the next stalled-job check after the lock ran out.
   */
  lockDurationMs?: number;
  /** How often a worker looks for stalled jobs (BullMQ's stalledInterval). */
  stalledIntervalMs?: number;
  onError?: QueueErrorReporter;
}

const DEFAULTS = { name: 'pagegrade', prefix: 'pagegrade', retryDelayMs: 5_000, lockDurationMs: 30_000, stalledIntervalMs: 30_000 };

/** How many given-up job ids a worker remembers, to give each up once. */
const GIVEN_UP_REMEMBERED = 1_000;

/** Failed jobs stay a week for inspection (with their error); succeeded ones are removed at once. */
const FAILED_KEPT_SECONDS = 7 * 24 * 3600;

export function createBullmqQueue<Kinds extends JobKinds>(options: BullmqQueueOptions): JobQueue<Kinds> {
  const settings = { ...DEFAULTS, ...options };
  const report: QueueErrorReporter = options.onError ?? (() => {});
  // Opened on first use: a process that never enqueues (a CLI command) never connects to Redis.
  let producer: { queue: Queue; connection: Redis } | undefined;
  let worker: { worker: Worker; connection: Redis } | undefined;

  function openProducer(): Queue {
    if (producer !== undefined) return producer.queue;
    // Enqueueing answers an HTTP request: fail it soon when Redis is away rather than hold it.
    const connection = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
    connection.on('error', (error) => report(error, { message: 'redis connection error (queue)' }));
    const queue = new Queue(settings.name, {
      connection,
      prefix: settings.prefix,
      defaultJobOptions: {
        attempts: MAX_ATTEMPTS,
        backoff: { type: 'exponential', delay: settings.retryDelayMs },
        removeOnComplete: true,
        removeOnFail: { age: FAILED_KEPT_SECONDS },
      },
    });
    queue.on('error', (error) => report(error, { message: 'queue error' }));
    producer = { queue, connection };
    return queue;
  }

  return {
    async enqueue(kind, payload, enqueueOptions = {}) {
      const job = await openProducer().add(kind, payload, { delay: Math.max(0, enqueueOptions.delayMs ?? 0) });
      return job.id!;
    },
    start(handlers: JobHandlers<Kinds>, startOptions) {
      if (worker !== undefined) throw new Error('this queue has already been started');
      if (!Number.isInteger(startOptions.concurrency) || startOptions.concurrency < 1) {
        throw new Error(`concurrency must be a positive integer; got ${startOptions.concurrency}`);
      }
      // A worker waits on Redis for jobs: its commands must wait through a reconnect, not fail.
      const connection = new Redis(settings.redisUrl, { maxRetriesPerRequest: null });
      connection.on('error', (error) => report(error, { message: 'redis connection error (worker)' }));
      const bullWorker = new Worker(
        settings.name,
        async (job) => {
          const handler = handlers[job.name as keyof Kinds];
          // A kind this process does not know (an older or newer version enqueued it) never will.
          if (handler === undefined) throw new UnrecoverableError(`no handler for job kind "${job.name}"`);
          await handler(job.data);
        },
        {
          connection,
          prefix: settings.prefix,
          concurrency: startOptions.concurrency,
          lockDuration: settings.lockDurationMs,
          stalledInterval: settings.stalledIntervalMs,
          // A job whose worker died is run again, as on the embedded engine, but not forever.
          maxStalledCount: MAX_ATTEMPTS - 1,
        },
      );
      bullWorker.on('error', (error) => report(error, { message: 'worker error' }));
      // BullMQ can report one stalled job more than once: each job is given up once per process.
      const givenUp = new Set<string>();
      const giveUpOnce = (job: { name: string; data: unknown; id: string }, error: string) => {
        if (givenUp.has(job.id)) return;
        givenUp.add(job.id);
        if (givenUp.size > GIVEN_UP_REMEMBERED) givenUp.delete(givenUp.values().next().value!);
        void giveUp(startOptions.onGiveUp, { kind: job.name, payload: job.data, id: job.id, error }, report);
      };
      bullWorker.on('failed', (job, error) => {
        const final = job === undefined || job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError;
        report(error, { kind: job?.name, jobId: job?.id, message: final ? 'job failed for good' : 'job run failed; it will be retried' });
        if (final && job !== undefined) giveUpOnce({ name: job.name, data: job.data, id: job.id! }, errorText(error));
      });
      // A job whose workers died on it too often is failed by BullMQ's stalled-job check, which
      // reports it only as stalled (to the one worker whose check found it): look at where it went.
      bullWorker.on('stalled', (jobId) => {
        void (async () => {
          const job = await Job.fromId(openProducer(), jobId);
          if (job === undefined || !(await job.isFailed())) return;
          if (!givenUp.has(jobId)) report(new Error(job.failedReason), { kind: job.name, jobId, message: 'job failed for good' });
          giveUpOnce({ name: job.name, data: job.data, id: jobId }, job.failedReason);
        })().catch((error) => report(error, { jobId, message: 'could not look up a stalled job' }));
      });
      worker = { worker: bullWorker, connection };
    },
    async close() {
      // Worker.close waits for the jobs it is running to finish, then stops taking new ones.
      if (worker !== undefined) {
        await worker.worker.close();
        await worker.connection.quit();
      }
      if (producer !== undefined) {
        await producer.queue.close();
        await producer.connection.quit();
      }
    },
  };
}
