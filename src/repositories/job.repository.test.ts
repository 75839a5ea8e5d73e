// Claiming jobs of the embedded queue on both dialects: parallel claimers never share a job, an
// expired lease gives the job to the next claimer, a run that lost its lease changes nothing, and a
// job abandoned on its last run fails for good. A job with a key is stored once while it is held, and
// the keys held are those of jobs still to run.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import {
  claimNextJob,
  deleteSucceededJob,
  failAbandonedJobs,
  heldJobKeys,
  insertJob,
  recordFailedRun,
  renewJobLease,
} from './job.repository.ts';

const T0 = '2026-11-26T16:00:00.000Z';
const T1 = '2026-11-26T16:00:30.000Z';
const T2 = '2026-11-26T16:01:00.000Z';
const T3 = '2026-11-26T16:01:30.000Z';
const T4 = '2026-11-26T16:02:00.000Z';

function claimAt(kind: string, now: string, leaseExpiresAt: string) {
  return { kinds: [kind], now, leaseToken: randomUUID(), leaseExpiresAt, maxAttempts: 3 };
}

forEachDialect('job repository', (database) => {
  it('parallel claimers each get different jobs, and every job is claimed once', async () => {
    const { db } = database();
    const kind = `parallel-${randomUUID()}`;
    const inserted = [];
    for (let index = 0; index < 30; index += 1) inserted.push(await insertJob(db, kind, '{}', { now: T0, runAt: T0 }));
    const claimer = async () => {
      const mine: number[] = [];
      for (;;) {
        const job = await claimNextJob(db, claimAt(kind, T1, T2));
        if (job === undefined) return mine;
        mine.push(job.id);
      }
    };
    const claimed = (await Promise.all(Array.from({ length: 8 }, claimer))).flat();
    expect(claimed.sort((a, b) => a - b)).toEqual(inserted);
  });

  it('gives a job whose lease expired to the next claimer, and fails it after its third abandoned run', async () => {
    const { db } = database();
    const kind = `abandoned-${randomUUID()}`;
    const id = await insertJob(db, kind, '{"n":1}', { now: T0, runAt: T0 });
    const first = await claimNextJob(db, claimAt(kind, T0, T1));
    expect(first).toMatchObject({ id, state: 'running', attempts: 1, payload: '{"n":1}' });
    // Still leased: nobody else gets it.
    expect(await claimNextJob(db, claimAt(kind, T0, T1))).toBeUndefined();
    const second = await claimNextJob(db, claimAt(kind, T1, T2));
    expect(second).toMatchObject({ id, attempts: 2 });
    // The first run lost the job: it can neither renew nor finish it.
    expect(await renewJobLease(db, id, first!.lease_token!, T4)).toBe(false);
    expect(await deleteSucceededJob(db, id, first!.lease_token!)).toBe(false);
    expect(await recordFailedRun(db, id, first!.lease_token!, { error: 'late', retryAt: null, now: T2 })).toBe(false);
    const third = await claimNextJob(db, claimAt(kind, T2, T3));
    expect(third).toMatchObject({ id, attempts: 3 });
    expect(await claimNextJob(db, claimAt(kind, T4, T4))).toBeUndefined();
    expect((await failAbandonedJobs(db, T4, 3, 'abandoned')).map((job) => job.id)).toEqual([id]);
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'failed', attempts: 3, last_error: 'abandoned', lease_token: null });
  });

  it('a renewed lease keeps the job; finishing deletes it; a retry waits until its time', async () => {
    const { db } = database();
    const kind = `lease-${randomUUID()}`;
    const id = await insertJob(db, kind, '{}', { now: T0, runAt: T0 });
    const run = (await claimNextJob(db, claimAt(kind, T0, T1)))!;
    expect(await renewJobLease(db, id, run.lease_token!, T3)).toBe(true);
    expect(await claimNextJob(db, claimAt(kind, T2, T4))).toBeUndefined();
    expect(await recordFailedRun(db, id, run.lease_token!, { error: 'boom', retryAt: T3, now: T2 })).toBe(true);
    expect(await claimNextJob(db, claimAt(kind, T2, T4))).toBeUndefined();
    const retry = (await claimNextJob(db, claimAt(kind, T3, T4)))!;
    expect(retry).toMatchObject({ id, attempts: 2, last_error: 'boom' });
    expect(await deleteSucceededJob(db, id, retry.lease_token!)).toBe(true);
    expect(await db.selectFrom('jobs').select('id').where('id', '=', id).execute()).toEqual([]);
  });

  it('a key is stored once while its job is held; a failed job of that key is replaced by a new one', async () => {
    const { db } = database();
    const kind = `keyed-${randomUUID()}`;
    const key = `key-${randomUUID()}`;
    const id = await insertJob(db, kind, '{"n":1}', { now: T0, runAt: T0, key });
    expect(await insertJob(db, kind, '{"n":2}', { now: T1, runAt: T1, key })).toBe(id);
    const run = (await claimNextJob(db, claimAt(kind, T1, T2)))!;
    expect(await insertJob(db, kind, '{"n":3}', { now: T1, runAt: T1, key })).toBe(id);
    expect(await recordFailedRun(db, id, run.lease_token!, { error: 'broke', retryAt: null, now: T1 })).toBe(true);
    const again = await insertJob(db, kind, '{"n":4}', { now: T2, runAt: T2, key });
    const rows = await db.selectFrom('jobs').selectAll().where('key', '=', key).execute();
    expect(rows).toEqual([expect.objectContaining({ id: again, state: 'queued', attempts: 0, payload: '{"n":4}', last_error: null, lease_token: null })]);
  });

  it('holds the keys of queued jobs and of running ones that will run on; not of failed ones', async () => {
    const { db } = database();
    const kind = `held-${randomUUID()}`;
    const keys = Array.from({ length: 5 }, (_, index) => `held-${index}-${randomUUID()}`);
    const [queued, running, lastRunAbandoned, failed, abandonedEarlier] = keys;
    await insertJob(db, kind, '{}', { now: T0, runAt: T0, key: queued });
    await insertJob(db, `${kind}-other`, '{}', { now: T0, runAt: T0, key: running });
    await db.updateTable('jobs').set({ state: 'running', attempts: 1, lease_token: 't', lease_expires_at: T3 }).where('key', '=', running).execute();
    for (const [key, attempts, state] of [[lastRunAbandoned, 3, 'running'], [failed, 1, 'failed'], [abandonedEarlier, 1, 'running']] as const) {
      await insertJob(db, `${kind}-other`, '{}', { now: T0, runAt: T0, key });
      await db.updateTable('jobs').set({ state, attempts, lease_token: 't', lease_expires_at: T1 }).where('key', '=', key).execute();
    }
    expect((await heldJobKeys(db, [...keys, 'never-added'], T2, 3)).sort()).toEqual([queued, running, abandonedEarlier].sort());
    expect(await heldJobKeys(db, [], T2, 3)).toEqual([]);
  });
});
