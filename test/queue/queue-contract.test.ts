// What every queue engine promises, checked on real storage: a job runs once, a failing job is
// retried up to three runs and then kept as failed with its error, no more jobs run at once than
// the concurrency allows, and close() lets running jobs finish.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/queue/job-queue.ts';
import { enginesUnderTest, sleep, waitFor, type EngineStorage } from './engines.ts';

type Kinds = {
  'test.record': { label: string };
  'test.fail': { label: string; succeedOnRun?: number };
  'test.sleep': { label: string; ms: number };
};

const engines = await enginesUnderTest();

describe.each(engines)('queue engine: $name', (engine) => {
  let storage: EngineStorage;
  let queue: JobQueue<Kinds> | undefined;
  const runs: string[] = [];
  const ranAt = new Map<string, number>();
  const givenUp: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;

  async function startQueue(concurrency: number): Promise<JobQueue<Kinds>> {
    storage = await engine.create();
    runs.length = 0;
    inFlight = 0;
    mostInFlight = 0;
    givenUp.length = 0;
    const opened = storage.open<Kinds>();
    queue = opened;
    opened.start(
      {
        'test.record': async ({ label }) => {
          runs.push(label);
          ranAt.set(label, Date.now());
        },
        'test.fail': async ({ label, succeedOnRun }) => {
          runs.push(label);
          const run = runs.filter((each) => each === label).length;
          if (run !== succeedOnRun) throw new Error(`${label} broke on run ${run}`);
        },
        'test.sleep': async ({ label, ms }) => {
          inFlight += 1;
          mostInFlight = Math.max(mostInFlight, inFlight);
          await sleep(ms);
          inFlight -= 1;
          runs.push(label);
        },
      },
      { concurrency, onGiveUp: { 'test.fail': async ({ label }, error) => void givenUp.push(`${label}: ${error}`) } },
    );
    return opened;
  }

  afterEach(async () => {
    await queue?.close();
    queue = undefined;
    await storage?.drop();
  });

  it('runs each job once, and a job that succeeds is gone', async () => {
    const opened = await startQueue(2);
    const labels = Array.from({ length: 12 }, (_, index) => `job-${index}`);
    const ids = await Promise.all(labels.map((label) => opened.enqueue('test.record', { label })));
    expect(new Set(ids).size).toBe(12);
    await waitFor(() => runs.length >= 12, 'every job to run');
    // Time for a wrongly repeated run to show up.
    await sleep(500);
    expect([...runs].sort()).toEqual([...labels].sort());
    for (const id of ids) expect((await storage.inspect(id)).state).toBe('gone');
  });

  it('retries a failing job up to three runs, then keeps it as failed with its error', async () => {
    const opened = await startQueue(1);
    const id = await opened.enqueue('test.fail', { label: 'always' });
    await waitFor(async () => (await storage.inspect(id)).state === 'failed', 'the job to fail for good');
    await sleep(300);
    expect(runs).toEqual(['always', 'always', 'always']);
    expect(await storage.inspect(id)).toEqual({ state: 'failed', attempts: 3, error: 'always broke on run 3' });
    expect(givenUp).toEqual(['always: always broke on run 3']);
  });

  it('a job that fails twice and then succeeds is done', async () => {
    const opened = await startQueue(1);
    const id = await opened.enqueue('test.fail', { label: 'third time', succeedOnRun: 3 });
    await waitFor(() => runs.length === 3, 'three runs');
    await waitFor(async () => (await storage.inspect(id)).state === 'gone', 'the job to be done');
    expect(givenUp).toEqual([]);
  });

  it('runs a delayed job no sooner than its delay, after jobs enqueued later without one', async () => {
    const opened = await startQueue(2);
    const enqueuedAt = Date.now();
    await opened.enqueue('test.record', { label: 'later' }, { delayMs: 800 });
    await opened.enqueue('test.record', { label: 'now' });
    await waitFor(() => runs.length === 2, 'both jobs to run');
    expect(runs).toEqual(['now', 'later']);
    expect(ranAt.get('later')! - enqueuedAt).toBeGreaterThanOrEqual(800);
  });

  it('runs no more jobs at once than its concurrency', async () => {
    const opened = await startQueue(3);
    await Promise.all(Array.from({ length: 9 }, (_, index) => opened.enqueue('test.sleep', { label: `s${index}`, ms: 200 })));
    await waitFor(() => runs.length === 9, 'nine jobs to run');
    expect(mostInFlight).toBe(3);
  });

  it('close() waits for the running job to finish', async () => {
    const opened = await startQueue(1);
    await opened.enqueue('test.sleep', { label: 'slow', ms: 700 });
    await waitFor(() => inFlight === 1, 'the job to start');
    await opened.close();
    queue = undefined;
    expect(runs).toEqual(['slow']);
  });
});
