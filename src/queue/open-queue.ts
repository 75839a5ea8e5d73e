// Which engine runs background work: BullMQ when REDIS_URL is set (work spreads over every process
// using that Redis), otherwise the embedded engine on the application's own database.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { createBullmqQueue } from './bullmq-queue.ts';
import { createEmbeddedQueue } from './embedded-queue.ts';
import type { JobKinds, JobQueue, QueueErrorReporter, SideLane } from './job-queue.ts';

export type QueueEngine = 'embedded' | 'bullmq';

export function queueEngine(redisUrl: string | undefined): QueueEngine {
  return redisUrl === undefined ? 'embedded' : 'bullmq';
}

export function openQueue<Kinds extends JobKinds>(
  db: Kysely<Database>,
  settings: { redisUrl: string | undefined; queuePrefix: string; jobLeaseMs: number; jobRetryMs: number },
  onError: QueueErrorReporter,
  lanes: readonly SideLane[] = [],
): JobQueue<Kinds> {
  const { redisUrl, queuePrefix, jobLeaseMs, jobRetryMs } = settings;
  const engine = queueEngine(redisUrl);
  switch (engine) {
    case 'embedded':
      return createEmbeddedQueue<Kinds>(db, { leaseMs: jobLeaseMs, retryDelayMs: jobRetryMs, lanes, onError });
    case 'bullmq':
      return createBullmqQueue<Kinds>({
        redisUrl: redisUrl!,
        prefix: queuePrefix,
        retryDelayMs: jobRetryMs,
        lanes,
        // A dead worker's job is found at the next stalled check after its lock ran out.
        lockDurationMs: jobLeaseMs,
        stalledIntervalMs: jobLeaseMs,
        onError,
      });
    default:
      throw new Error(`unknown queue engine ${JSON.stringify(engine satisfies never)}`);
  }
}
