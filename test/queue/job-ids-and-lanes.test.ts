// What every queue engine promises about ids its producers choose and about side lanes, on real
// storage: adding an id the queue holds adds nothing, `holds` says which ids are still to run, an id
// whose job failed for good can be used again; a side lane's jobs run beside the slots, at most its
// concurrency at once, and a job of a lane's kind queued before the lane existed still runs.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobHandlers, JobQueue, SideLane } from '../../src/queue/job-queue.ts';
import { enginesUnderTest, sleep, waitFor, type EngineStorage } from './engines.ts';

type Kinds = {
  'test.record': { label: string };
  'test.gate': { label: string };
  'test.fail': { label: string };
  'test.side': { label: string; ms: number };
};

const engines = await enginesUnderTest();

describe.each(engines)('queue engine: $name, job ids and side lanes', (engine) => {
  let storage: EngineStorage | undefined;
  const queues: JobQueue<Kinds>[] = [];
  const runs: string[] = [];
  let gate: () => void = () => {};
  let gateOpen = new Promise<void>((open) => (gate = open));
  let sideInFlight = 0;
  let mostSideInFlight = 0;

  const handlers: JobHandlers<Kinds> = {
    'test.record': async ({ label }) => void runs.push(label),
    'test.gate': async ({ label }) => {
      runs.push(`${label} started`);
      await gateOpen;
    },
    'test.fail': async ({ label }) => {
      runs.push(label);
      throw new Error(`${label} broke`);
    },
    'test.side': async ({ label, ms }) => {
      sideInFlight += 1;
      mostSideInFlight = Math.max(mostSideInFlight, sideInFlight);
      await sleep(ms);
      sideInFlight -= 1;
      runs.push(label);
    },
  };

  async function open(lanes?: readonly SideLane[]): Promise<JobQueue<Kinds>> {
    storage ??= await engine.create();
    const queue = storage.open<Kinds>(lanes);
    queues.push(queue);
    return queue;
  }

  afterEach(async () => {
    gate();
    for (const queue of queues.splice(0)) await queue.close();
    await storage?.drop();
    storage = undefined;
    runs.length = 0;
    gateOpen = new Promise<void>((open) => (gate = open));
    sideInFlight = mostSideInFlight = 0;
  });

  it('adds nothing for an id it holds, and holds an id until its job is done', async () => {
    const queue = await open();
    await queue.enqueue('test.gate', { label: 'first' }, { jobId: 'gate-1' });
    await queue.enqueue('test.gate', { label: 'again' }, { jobId: 'gate-1' });
    expect(await queue.holds(['gate-1', 'never-added'])).toEqual(new Set(['gate-1']));
    queue.start(handlers, { concurrency: 2 });
    await waitFor(() => runs.length === 1, 'the job to start');
    // Running: still held, and adding the id again adds nothing.
    expect(await queue.holds(['gate-1'])).toEqual(new Set(['gate-1']));
    await queue.enqueue('test.gate', { label: 'while running' }, { jobId: 'gate-1' });
    gate();
    await waitFor(async () => (await queue.holds(['gate-1'])).size === 0, 'the job to be done');
    await sleep(300);
    expect(runs).toEqual(['first started']);
  });

  it('an id whose job failed for good is not held, and adding it again runs a new job', async () => {
    const queue = await open();
    queue.start(handlers, { concurrency: 1 });
    await queue.enqueue('test.fail', { label: 'broken' }, { jobId: 'reused-1' });
    await waitFor(() => runs.length === 3, 'three runs of the failing job');
    await waitFor(async () => (await queue.holds(['reused-1'])).size === 0, 'the job to fail for good');
    await queue.enqueue('test.record', { label: 'in its place' }, { jobId: 'reused-1' });
    await waitFor(() => runs.includes('in its place'), 'the new job to run');
  });

  it('runs a side lane beside the slots, at most its concurrency at once', async () => {
    const queue = await open([{ name: 'side', kinds: ['test.side'], concurrency: 2 }]);
    queue.start(handlers, { concurrency: 1 });
    await Promise.all(Array.from({ length: 6 }, (_, index) => queue.enqueue('test.side', { label: `side-${index}`, ms: 300 })));
    await waitFor(() => sideInFlight === 2, 'the lane to be busy');
    // The one slot is free for other kinds while the lane is busy.
    await queue.enqueue('test.record', { label: 'main' });
    await waitFor(() => runs.includes('main'), 'the main job to run');
    expect(runs.filter((label) => label.startsWith('side-')).length).toBeLessThan(6);
    await waitFor(() => runs.length === 7, 'every side job to run');
    expect(mostSideInFlight).toBe(2);
  });

  it('the side lane takes none of the slots: a main job waits for its slot, not for the lane', async () => {
    const queue = await open([{ name: 'side', kinds: ['test.side'], concurrency: 1 }]);
    queue.start(handlers, { concurrency: 1 });
    await queue.enqueue('test.gate', { label: 'holding the slot' });
    await waitFor(() => runs.length === 1, 'the slot to be taken');
    await queue.enqueue('test.side', { label: 'side', ms: 0 });
    await waitFor(() => runs.includes('side'), 'the side job to run while the slot is held');
    await queue.enqueue('test.record', { label: 'main' });
    await sleep(300);
    expect(runs).not.toContain('main');
    gate();
    await waitFor(() => runs.includes('main'), 'the main job once the slot is free');
  });

  it('a job of a lane kind queued before the lane existed still runs, once', async () => {
    const before = await open();
    await before.enqueue('test.side', { label: 'queued before the upgrade', ms: 0 });
    await before.close();
    queues.splice(0);
    const after = await open([{ name: 'side', kinds: ['test.side'], concurrency: 1 }]);
    after.start(handlers, { concurrency: 1 });
    await waitFor(() => runs.length === 1, 'the old job to run');
    await sleep(300);
    expect(runs).toEqual(['queued before the upgrade']);
  });
});
