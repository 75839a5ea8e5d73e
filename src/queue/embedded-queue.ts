// The embedded engine: jobs are rows in the application's database (SQLite or PostgreSQL), run by
// the processes that open it. A run holds a lease and renews it while it works; when its process
// dies the lease runs out and another process (or this one after a restart) runs the job again, up
// to MAX_ATTEMPTS runs. Only the run holding the lease can finish a job, so a job never counts as
// done twice, and as long as a process renews in time no two runs of one job overlap.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { JobRow } from '../db/tables/job.table.ts';
import {
  claimNextJob,
  deleteSucceededJob,
  failAbandonedJobs,
  heldJobKeys,
  insertJob,
  recordFailedRun,
  renewJobLease,
} from '../repositories/job.repository.ts';
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

export interface EmbeddedQueueOptions {
  /**
   * How long a run's claim lasts without renewal; renewed every third of it. A process that dies
   * leaves its jobs to others after at most this long. Long enough that a busy event loop never
   * misses a renewal, short enough that a restart resumes work soon.
   */
  leaseMs?: number;
  /** How often an idle process looks for jobs that another process queued (its own wake it at once). */
  pollMs?: number;
  /** Wait before a failed run's retry; doubled for each further retry (BullMQ's exponential backoff). */
  retryDelayMs?: number;
  /** Kinds claimed apart from the rest, each lane with slots of its own (job-queue.ts). */
  lanes?: readonly SideLane[];
  onError?: QueueErrorReporter;
}

/** One claimer: the kinds it takes, how many it runs at once, and the runs under way. */
interface Lane {
  kinds: string[];
  concurrency: number;
  running: Set<Promise<void>>;
  filling: boolean;
  refill: boolean;
}

const DEFAULTS = { leaseMs: 30_000, pollMs: 1_000, retryDelayMs: 5_000 };

const ABANDONED = `the process running it stopped ${MAX_ATTEMPTS} times before it finished`;

export function createEmbeddedQueue<Kinds extends JobKinds>(
  db: Kysely<Database>,
  options: EmbeddedQueueOptions = {},
): JobQueue<Kinds> {
  const { leaseMs, pollMs, retryDelayMs } = { ...DEFAULTS, ...options };
  const sideLanes = options.lanes ?? [];
  const report: QueueErrorReporter = options.onError ?? (() => {});
  let lanes: Lane[] = [];
  let handlers: JobHandlers<Kinds> | undefined;
  let giveUpHandlers: GiveUpHandlers<Kinds> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let closed = false;

  const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

  /** The poll: gives up abandoned jobs, then every lane claims what it has room for. */
  async function poll(): Promise<void> {
    // A slow database is never asked the same twice at once.
    if (polling) return;
    polling = true;
    try {
      await sweepAbandoned();
    } catch (error) {
      report(error, { message: 'could not give up abandoned jobs' });
    }
    try {
      await Promise.all(lanes.map((lane) => fill(lane)));
    } finally {
      polling = false;
    }
  }

  /**
   * Claims jobs of the lane's kinds until its slots are busy or none is runnable. The poll (not each
   * finished job) gives up the jobs abandoned on their last run first: a lease runs out in seconds,
   * not between two jobs, so looking once a poll is enough and saves a statement per job.
   */
  async function fill(lane: Lane): Promise<void> {
    if (lane.filling) {
      lane.refill = true;
      return;
    }
    lane.filling = true;
    try {
      do {
        lane.refill = false;
        while (!closed && lane.running.size < lane.concurrency) {
          const job = await claimNextJob(db, {
            kinds: lane.kinds,
            now: isoIn(0),
            leaseToken: randomUUID(),
            leaseExpiresAt: isoIn(leaseMs),
            maxAttempts: MAX_ATTEMPTS,
          });
          if (job === undefined) break;
          launch(lane, job);
        }
      } while (lane.refill && !closed);
    } catch (error) {
      report(error, { message: 'could not claim a job' });
    } finally {
      lane.filling = false;
    }
  }

  const laneOf = (kind: string): Lane | undefined => lanes.find((lane) => lane.kinds.includes(kind));

  async function sweepAbandoned(): Promise<void> {
    const abandoned = await failAbandonedJobs(db, isoIn(0), MAX_ATTEMPTS, ABANDONED);
    for (const job of abandoned) {
      await giveUp(giveUpHandlers, { kind: job.kind, payload: JSON.parse(job.payload), id: String(job.id), error: ABANDONED }, report);
    }
  }

  function launch(lane: Lane, job: JobRow): void {
    const leaseToken = job.lease_token!;
    const context = { kind: job.kind, jobId: String(job.id) };
    const renewal = setInterval(() => {
      renewJobLease(db, job.id, leaseToken, isoIn(leaseMs)).then(
        (held) => {
          if (!held) report(new Error('lease lost'), { ...context, message: 'another process took over this job' });
        },
        (error) => report(error, { ...context, message: 'could not renew the lease' }),
      );
    }, leaseMs / 3);
    const run = (async () => {
      try {
        await handlers![job.kind as keyof Kinds](JSON.parse(job.payload));
      } catch (error) {
        clearInterval(renewal);
        const retryAt = job.attempts < MAX_ATTEMPTS ? isoIn(retryDelayMs * 2 ** (job.attempts - 1)) : null;
        report(error, { ...context, message: retryAt === null ? 'job failed for good' : 'job run failed; it will be retried' });
        const recorded = await recordFailedRun(db, job.id, leaseToken, { error: errorText(error), retryAt, now: isoIn(0) });
        if (recorded && retryAt === null) {
          await giveUp(giveUpHandlers, { kind: job.kind, payload: JSON.parse(job.payload), id: String(job.id), error: errorText(error) }, report);
        }
        return;
      }
      clearInterval(renewal);
      await deleteSucceededJob(db, job.id, leaseToken);
    })()
      .catch((error) => report(error, { ...context, message: 'could not record the end of a job' }))
      .finally(() => {
        lane.running.delete(run);
        if (!closed) void fill(lane);
      });
    lane.running.add(run);
  }

  return {
    async enqueue(kind, payload, enqueueOptions = {}) {
      const delayMs = enqueueOptions.delayMs ?? 0;
      const id = await insertJob(db, kind, JSON.stringify(payload), { now: isoIn(0), runAt: isoIn(delayMs), key: enqueueOptions.jobId });
      // A delayed job is found by the poll once it is due.
      const lane = laneOf(kind);
      if (lane !== undefined && !closed && delayMs <= 0) void fill(lane);
      return String(id);
    },
    async holds(jobIds) {
      return new Set(await heldJobKeys(db, jobIds, isoIn(0), MAX_ATTEMPTS));
    },
    start(jobHandlers, startOptions) {
      if (handlers !== undefined) throw new Error('this queue has already been started');
      if (!Number.isInteger(startOptions.concurrency) || startOptions.concurrency < 1) {
        throw new Error(`concurrency must be a positive integer; got ${startOptions.concurrency}`);
      }
      handlers = jobHandlers;
      giveUpHandlers = startOptions.onGiveUp;
      const kinds = Object.keys(jobHandlers);
      const inSideLane = new Set(sideLanes.flatMap((lane) => lane.kinds));
      const newLane = (laneKinds: string[], concurrency: number): Lane => ({ kinds: laneKinds, concurrency, running: new Set(), filling: false, refill: false });
      lanes = [
        newLane(kinds.filter((kind) => !inSideLane.has(kind)), startOptions.concurrency),
        ...sideLanes.map((lane) => newLane(lane.kinds.filter((kind) => kinds.includes(kind)), lane.concurrency)),
      ].filter((lane) => lane.kinds.length > 0);
      timer = setInterval(() => void poll(), pollMs);
      void poll();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      // The runs renew their leases until they end, so no other process takes their jobs meanwhile.
      const claiming = () => polling || lanes.some((lane) => lane.filling);
      while (claiming() || lanes.some((lane) => lane.running.size > 0)) {
        await Promise.allSettled(lanes.flatMap((lane) => [...lane.running]));
        if (claiming()) await new Promise((wait) => setTimeout(wait, 10));
      }
    },
  };
}
