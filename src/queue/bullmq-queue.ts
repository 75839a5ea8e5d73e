// The Redis engine: one BullMQ queue, one job name per kind, and a BullMQ Worker in every process
// that runs jobs (`pagegrade worker`, servers unless PAGEGRADE_WORKERS=0). Retries, their backoff,
// locks and the recovery of jobs whose worker died (stalled jobs) are BullMQ's own. A side lane's
// kinds (job-queue.ts) go to a queue of their own with a Worker of their own, so they never take one
// of the main Worker's slots.
import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  MAX_ATTEMPTS,
  errorText,
  giveUp,
  type GiveUpHandlers,
  type JobHandlers,
  type JobKinds,
  type JobQueue,
  type QueueErrorReporter,
  type SideLane,
} from './job-queue.ts';

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
  /** Kinds run apart from the rest, each in a queue named `<name>-<lane name>` (job-queue.ts). */
  lanes?: readonly SideLane[];
  onError?: QueueErrorReporter;
}

const DEFAULTS = { name: 'pagegrade', prefix: 'pagegrade', retryDelayMs: 5_000, lockDurationMs: 30_000, stalledIntervalMs: 30_000 };

/** How many given-up job ids a worker remembers, to give each up once. */
const GIVEN_UP_REMEMBERED = 1_000;

/** Failed jobs stay a week for inspection (with their error); succeeded ones are removed at once. */
const FAILED_KEPT_SECONDS = 7 * 24 * 3600;

interface Producer {
  queue: Queue;
  connection: Redis;
}

interface Consumer {
  worker: Worker;
  connection: Redis;
}

export function createBullmqQueue<Kinds extends JobKinds>(options: BullmqQueueOptions): JobQueue<Kinds> {
  const settings = { ...DEFAULTS, ...options };
  const report: QueueErrorReporter = options.onError ?? (() => {});
  const lanes = options.lanes ?? [];
  // Opened on first use: a process that never enqueues (a CLI command) never connects to Redis.
  const producers = new Map<string, Producer>();
  const consumers: Consumer[] = [];

  const queueNameOf = (kind: string): string => {
    const lane = lanes.find((each) => each.kinds.includes(kind));
    return lane === undefined ? settings.name : `${settings.name}-${lane.name}`;
  };

  function openProducer(name = settings.name): Queue {
    const open = producers.get(name);
    if (open !== undefined) return open.queue;
    // Enqueueing answers an HTTP request: fail it soon when Redis is away rather than hold it.
    const connection = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
    connection.on('error', (error) => report(error, { message: 'redis connection error (queue)' }));
    const queue = new Queue(name, {
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
    producers.set(name, { queue, connection });
    return queue;
  }

  async function add(kind: string, payload: unknown, addOptions: { delayMs?: number; jobId?: string }): Promise<string> {
    const name = queueNameOf(kind);
    const queue = openProducer(name);
    const { jobId } = addOptions;
    // A failed job is kept a week under its id, and adding that id again would add nothing: it goes.
    // (Asked of the failed set alone: getJobState may walk the whole waiting list.)
    if (jobId !== undefined && (await producers.get(name)!.connection.zscore(queue.keys.failed, jobId)) !== null) await queue.remove(jobId);
    const job = await queue.add(kind, payload, { delay: Math.max(0, addOptions.delayMs ?? 0), ...(jobId === undefined ? {} : { jobId }) });
    return job.id!;
  }

  /** One Worker on one queue, running at most `concurrency` jobs of these handlers at once. */
  function consume(name: string, concurrency: number, handle: (job: Job) => Promise<void>, onGiveUp: GiveUpHandlers<Kinds> | undefined): void {
    // A worker waits on Redis for jobs: its commands must wait through a reconnect, not fail.
    const connection = new Redis(settings.redisUrl, { maxRetriesPerRequest: null });
    connection.on('error', (error) => report(error, { message: 'redis connection error (worker)' }));
    const bullWorker = new Worker(name, handle, {
      connection,
      prefix: settings.prefix,
      concurrency,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      // A job whose worker died is run again, as on the embedded engine, but not forever.
      maxStalledCount: MAX_ATTEMPTS - 1,
    });
    bullWorker.on('error', (error) => report(error, { message: 'worker error' }));
    // BullMQ can report one stalled job more than once: each job is given up once per process.
    const givenUp = new Set<string>();
    const giveUpOnce = (job: { name: string; data: unknown; id: string }, error: string) => {
      if (givenUp.has(job.id)) return;
      givenUp.add(job.id);
      if (givenUp.size > GIVEN_UP_REMEMBERED) givenUp.delete(givenUp.values().next().value!);
      void giveUp(onGiveUp, { kind: job.name, payload: job.data, id: job.id, error }, report);
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
        const job = await Job.fromId(openProducer(name), jobId);
        if (job === undefined || !(await job.isFailed())) return;
        if (!givenUp.has(jobId)) report(new Error(job.failedReason), { kind: job.name, jobId, message: 'job failed for good' });
        giveUpOnce({ name: job.name, data: job.data, id: jobId }, job.failedReason);
      })().catch((error) => report(error, { jobId, message: 'could not look up a stalled job' }));
    });
    consumers.push({ worker: bullWorker, connection });
  }

  return {
    async enqueue(kind, payload, enqueueOptions = {}) {
      return add(kind, payload, enqueueOptions);
    },
    async holds(jobIds) {
      // A job's hash lives while it waits, is delayed or runs; the one of a job that failed is kept,
      // and one that succeeded is removed. (getJobState would also say, but it walks the waiting
      // list, which may be long.)
      const queue = openProducer();
      const pipeline = producers.get(settings.name)!.connection.pipeline();
      for (const id of jobIds) {
        pipeline.exists(queue.toKey(id));
        pipeline.zscore(queue.keys.failed, id);
        pipeline.zscore(queue.keys.completed, id);
      }
      const answers = (await pipeline.exec()) ?? [];
      const held = new Set<string>();
      jobIds.forEach((id, index) => {
        const [exists, failed, completed] = answers.slice(index * 3, index * 3 + 3).map(([error, value]: [Error | null, unknown]) => {
          if (error) throw error;
          return value;
        });
        if (exists === 1 && failed === null && completed === null) held.add(id);
      });
      return held;
    },
    start(handlers: JobHandlers<Kinds>, startOptions) {
      if (consumers.length > 0) throw new Error('this queue has already been started');
      if (!Number.isInteger(startOptions.concurrency) || startOptions.concurrency < 1) {
        throw new Error(`concurrency must be a positive integer; got ${startOptions.concurrency}`);
      }
      const run = async (job: Job) => {
        const handler = handlers[job.name as keyof Kinds];
        // A kind this process does not know (an older or newer version enqueued it) never will.
        if (handler === undefined) throw new UnrecoverableError(`no handler for job kind "${job.name}"`);
        await handler(job.data);
      };
      consume(
        settings.name,
        startOptions.concurrency,
        async (job) => {
          // A side lane's job in the main queue was queued before its lane existed: it moves there
          // (once, under an id made of its own) rather than take a slot.
          if (queueNameOf(job.name) !== settings.name) {
            await add(job.name, job.data, { jobId: `moved-${job.id}` });
            return;
          }
          await run(job);
        },
        startOptions.onGiveUp,
      );
      for (const lane of lanes) {
        if (lane.kinds.some((kind) => kind in handlers)) consume(`${settings.name}-${lane.name}`, lane.concurrency, run, startOptions.onGiveUp);
      }
    },
    async close() {
      // Worker.close waits for the jobs it is running to finish, then stops taking new ones.
      await Promise.all(
        consumers.map(async ({ worker, connection }) => {
          await worker.close();
          await connection.quit();
        }),
      );
      for (const { queue, connection } of producers.values()) {
        await queue.close();
        await connection.quit();
      }
    },
  };
}
