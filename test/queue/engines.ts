// The queue engines under test, each on real storage: the embedded engine on SQLite (and PostgreSQL
// when TEST_DATABASE_URL is set), BullMQ on the test Redis (skipped without one unless
// PAGEGRADE_REQUIRE_REDIS=1). Every engine instance gets storage no other test file shares: a fresh
// database, or a queue name and key prefix of its own.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { createDb, type DbHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createBullmqQueue } from '../../src/queue/bullmq-queue.ts';
import { createEmbeddedQueue } from '../../src/queue/embedded-queue.ts';
import type { JobKinds, JobQueue, SideLane } from '../../src/queue/job-queue.ts';
import { createScratchDatabase, testDialects, type ScratchDatabase } from '../support/databases.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';

/** How a job ended up, read from the engine's own storage. */
interface StoredJob {
  state: 'queued' | 'running' | 'failed' | 'gone';
  attempts: number;
  error: string | null;
}

/** Short timings so retries and recovery happen within a test. */
const FAST = { retryDelayMs: 20, leaseMs: 1_500, pollMs: 100, lockDurationMs: 1_500, stalledIntervalMs: 500 };

export interface EngineStorage {
  /** The environment a queue process (test/support/queue-worker-process.ts) needs to join this queue. */
  env: Record<string, string>;
  open<Kinds extends JobKinds>(lanes?: readonly SideLane[]): JobQueue<Kinds>;
  inspect(jobId: string): Promise<StoredJob>;
  drop(): Promise<void>;
}

export interface Engine {
  name: string;
  create(): Promise<EngineStorage>;
}

async function embedded(scratch: ScratchDatabase): Promise<EngineStorage> {
  const handle: DbHandle = createDb(scratch.databaseUrl);
  await migrateToLatest(handle.db);
  return {
    env: { QUEUE_ENGINE: 'embedded', DATABASE_URL: scratch.databaseUrl },
    open: (lanes) => createEmbeddedQueue(handle.db, { ...FAST, lanes }),
    async inspect(jobId) {
      const row = await handle.db.selectFrom('jobs').selectAll().where('id', '=', Number(jobId)).executeTakeFirst();
      // A job that succeeded is deleted.
      if (row === undefined) return { state: 'gone', attempts: 0, error: null };
      return { state: row.state, attempts: row.attempts, error: row.last_error };
    },
    async drop() {
      await handle.destroy();
      await scratch.drop();
    },
  };
}

async function bullmq(): Promise<EngineStorage> {
  const name = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const prefix = `pagegrade-test`;
  const { hostname, port } = new URL(TEST_REDIS_URL);
  const connection = { host: hostname, port: Number(port) || 6379 };
  const inspector = new Queue(name, { connection, prefix });
  const lanesOpened = new Set<string>();
  return {
    env: { QUEUE_ENGINE: 'bullmq', REDIS_URL: TEST_REDIS_URL, QUEUE_NAME: name, QUEUE_PREFIX: prefix },
    open: (lanes) => {
      for (const lane of lanes ?? []) lanesOpened.add(`${name}-${lane.name}`);
      return createBullmqQueue({ redisUrl: TEST_REDIS_URL, name, prefix, ...FAST, lanes });
    },
    async inspect(jobId) {
      const job = await inspector.getJob(jobId);
      if (job === undefined) return { state: 'gone', attempts: 0, error: null };
      const state = await job.getState();
      return {
        state: state === 'failed' ? 'failed' : state === 'active' ? 'running' : 'queued',
        attempts: job.attemptsMade,
        error: job.failedReason ?? null,
      };
    },
    async drop() {
      await inspector.obliterate({ force: true });
      await inspector.close();
      for (const laneName of lanesOpened) {
        const lane = new Queue(laneName, { connection, prefix });
        await lane.obliterate({ force: true });
        await lane.close();
      }
    },
  };
}

export async function enginesUnderTest(): Promise<Engine[]> {
  const engines: Engine[] = testDialects().map((dialect) => ({
    name: `embedded on ${dialect}`,
    create: async () => embedded(await createScratchDatabase(dialect)),
  }));
  if (await testRedisAvailable()) engines.push({ name: 'bullmq on redis', create: bullmq });
  return engines;
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wait) => setTimeout(wait, 25));
  }
}

export const sleep = (ms: number) => new Promise<void>((wait) => setTimeout(wait, ms));
