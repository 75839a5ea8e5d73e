// Claiming jobs of the embedded queue on both dialects: parallel claimers never share a job, an
// expired lease gives the job to the next claimer, a run that lost its lease changes nothing, and a
// job abandoned on its last run fails for good.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import {
  claimNextJob,
  deleteSucceededJob,
  failAbandonedJobs,
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
});
