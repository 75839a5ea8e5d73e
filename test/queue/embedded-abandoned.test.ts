// The embedded engine gives up on a job whose process died on each of its three runs: the job is
// kept as failed with why, and never run a fourth time. (BullMQ does the same with maxStalledCount.)
import { expect, it } from 'vitest';
import { createEmbeddedQueue } from '../../src/queue/embedded-queue.ts';
import { forEachDialect } from '../support/databases.ts';
import { sleep, waitFor } from './engines.ts';

forEachDialect('embedded engine and abandoned jobs', (database) => {
  it('fails a job abandoned on its third run and runs one abandoned on its second again', async () => {
    const { db } = database();
    const past = new Date(Date.now() - 60_000).toISOString();
    const abandoned = (attempts: number, label: string) => ({
      kind: 'test.abandoned',
      payload: JSON.stringify({ label }),
      state: 'running' as const,
      attempts,
      run_at: past,
      lease_token: 'a dead process',
      lease_expires_at: past,
      created_at: past,
      updated_at: past,
    });
    const [third, second] = await db
      .insertInto('jobs')
      .values([abandoned(3, 'third'), abandoned(2, 'second')])
      .returning('id')
      .execute();
    const runs: string[] = [];
    const givenUp: string[] = [];
    const queue = createEmbeddedQueue<{ 'test.abandoned': { label: string } }>(db, { pollMs: 50 });
    queue.start(
      { 'test.abandoned': async ({ label }) => void runs.push(label) },
      { concurrency: 2, onGiveUp: { 'test.abandoned': async ({ label }, error) => void givenUp.push(`${label}: ${error}`) } },
    );
    try {
      await waitFor(() => runs.length === 1, 'the job abandoned on its second run to run again');
      await sleep(300);
      expect(runs).toEqual(['second']);
      expect(givenUp).toEqual(['third: the process running it stopped 3 times before it finished']);
      const rows = await db.selectFrom('jobs').selectAll().where('id', 'in', [third.id, second.id]).execute();
      expect(rows).toEqual([
        expect.objectContaining({
          id: third.id,
          state: 'failed',
          attempts: 3,
          last_error: 'the process running it stopped 3 times before it finished',
        }),
      ]);
    } finally {
      await queue.close();
    }
  });
});
