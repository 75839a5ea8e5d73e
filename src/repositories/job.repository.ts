// The embedded queue's jobs (src/queue/embedded-queue.ts). Every change to a running job names its
// lease token, so only the run that claimed the job can renew or finish it: a run that lost its lease
// (its process stalled past it, and another process took the job) changes nothing.
import { PostgresAdapter } from 'kysely';
import type { DbExecutor } from './executor.ts';
import type { JobRow } from '../db/tables/job.table.ts';

export interface Claim {
  kinds: readonly string[];
  now: string;
  leaseToken: string;
  leaseExpiresAt: string;
  /** A job that has started this many runs is never claimed again. */
  maxAttempts: number;
}

/**
 * Stores a job. With a key, while a job of that key is queued or running nothing is stored (its id is
 * returned); one that failed for good is queued again in its place, as a new job.
 */
export async function insertJob(db: DbExecutor, kind: string, payload: string, at: { now: string; runAt: string; key?: string }): Promise<number> {
  const values = { kind, payload, state: 'queued' as const, run_at: at.runAt, created_at: at.now, updated_at: at.now };
  if (at.key === undefined) {
    const row = await db.insertInto('jobs').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }
  const row = await db
    .insertInto('jobs')
    .values({ ...values, key: at.key })
    .onConflict((conflict) =>
      conflict
        .column('key')
        .doUpdateSet({ ...values, attempts: 0, lease_token: null, lease_expires_at: null, last_error: null })
        .where('jobs.state', '=', 'failed'),
    )
    .returning('id')
    .executeTakeFirst();
  if (row !== undefined) return row.id;
  const held = await db.selectFrom('jobs').select('id').where('key', '=', at.key).executeTakeFirstOrThrow();
  return held.id;
}

/**
 * The keys among `keys` of jobs still to run: queued, or running (a run whose lease ran out is taken
 * again, unless it was the last one allowed, which the next poll fails).
 */
export async function heldJobKeys(db: DbExecutor, keys: readonly string[], now: string, maxAttempts: number): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('jobs')
    .select('key')
    .where('key', 'in', keys)
    .where((eb) =>
      eb.or([
        eb('state', '=', 'queued'),
        eb.and([eb('state', '=', 'running'), eb.or([eb('lease_expires_at', '>', now), eb('attempts', '<', maxAttempts)])]),
      ]),
    )
    .execute();
  return rows.map((row) => row.key!);
}

/**
 * Takes the next runnable job (queued and due, or running with an expired lease) and starts a run
 * of it, in one statement. On PostgreSQL, FOR UPDATE SKIP LOCKED lets processes claim side by side
 * without waiting on each other; SQLite runs one writing statement at a time, which is enough.
 */
export async function claimNextJob(db: DbExecutor, claim: Claim): Promise<JobRow | undefined> {
  if (claim.kinds.length === 0) return undefined;
  const candidate = db
    .selectFrom('jobs')
    .select('id')
    .where('kind', 'in', claim.kinds)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', claim.now)]),
        eb.and([eb('state', '=', 'running'), eb('lease_expires_at', '<=', claim.now), eb('attempts', '<', claim.maxAttempts)]),
      ]),
    )
    .orderBy('run_at')
    .orderBy('id')
    .limit(1);
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      attempts: eb('attempts', '+', 1),
      lease_token: claim.leaseToken,
      lease_expires_at: claim.leaseExpiresAt,
      updated_at: claim.now,
    }))
    .where('id', '=', isPostgres ? candidate.forUpdate().skipLocked() : candidate)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Running jobs whose lease ran out on their last allowed run: failed for good, with why. Returns the
 * jobs this call failed (a job another process failed first is not among them).
 */
export async function failAbandonedJobs(db: DbExecutor, now: string, maxAttempts: number, error: string): Promise<JobRow[]> {
  return db
    .updateTable('jobs')
    .set({ state: 'failed', lease_token: null, lease_expires_at: null, last_error: error, updated_at: now })
    .where('state', '=', 'running')
    .where('lease_expires_at', '<=', now)
    .where('attempts', '>=', maxAttempts)
    .returningAll()
    .execute();
}

/** False when the run no longer holds the job. */
export async function renewJobLease(db: DbExecutor, id: number, leaseToken: string, leaseExpiresAt: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_expires_at: leaseExpiresAt })
    .where('id', '=', id)
    .where('lease_token', '=', leaseToken)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A run succeeded: the job is done and goes. False when the run no longer held it. */
export async function deleteSucceededJob(db: DbExecutor, id: number, leaseToken: string): Promise<boolean> {
  const result = await db
    .deleteFrom('jobs')
    .where('id', '=', id)
    .where('lease_token', '=', leaseToken)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** A run threw: queued again from `retryAt`, or failed for good when `retryAt` is null. */
export async function recordFailedRun(
  db: DbExecutor,
  id: number,
  leaseToken: string,
  outcome: { error: string; retryAt: string | null; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: outcome.retryAt === null ? 'failed' : 'queued',
      run_at: outcome.retryAt ?? outcome.now,
      lease_token: null,
      lease_expires_at: null,
      last_error: outcome.error,
      updated_at: outcome.now,
    })
    .where('id', '=', id)
    .where('lease_token', '=', leaseToken)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
