// A process SIGKILLed mid-job loses nothing: another process on the same database (embedded engine)
// or the same Redis (BullMQ's stalled-job recovery) finishes the job, and never while the first run
// was still alive: the live run's lease (or lock) keeps the other process off it. On the embedded
// engine a process started again after the kill, alone, resumes the job.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enginesUnderTest, sleep, waitFor } from '../queue/engines.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const engines = await enginesUnderTest();
const dir = mkdtempSync(join(tmpdir(), 'pagegrade-queue-kill-'));
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface RunEvent {
  event: 'start' | 'end';
  label: string;
  pid: number;
  at: number;
}

function readLog(path: string): RunEvent[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RunEvent);
}

async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/queue-worker-process.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk));
  await waitFor(() => out.includes('ready') || child.exitCode !== null, 'the worker process to start', 30_000);
  if (!out.includes('ready')) throw new Error(`the worker process exited:\n${out}`);
  return child;
}

describe.each(engines)('a worker SIGKILLed mid-job: $name', (engine) => {
  it('another process finishes the job, only after the first run died, exactly once', { timeout: 90_000 }, async () => {
    const storage = await engine.create();
    const runLog = join(dir, `${engine.name.replace(/\W+/g, '-')}.log`);
    const env = { ...storage.env, RUN_LOG: runLog };
    const producer = storage.open<{ 'test.sleep': { label: string; ms: number } }>();
    try {
      const workers = await Promise.all([startWorker(env), startWorker(env)]);
      const id = await producer.enqueue('test.sleep', { label: 'long', ms: 4_000 });
      await waitFor(() => readLog(runLog).some((run) => run.event === 'start'), 'the job to start');
      const first = readLog(runLog)[0];
      // Longer than a lease: the other process must leave a job alone while its run is alive.
      await sleep(2_500);
      expect(readLog(runLog)).toEqual([first]);
      const victim = workers.find((worker) => worker.pid === first.pid)!;
      const gone = new Promise((done) => victim.once('exit', done));
      victim.kill('SIGKILL');
      await gone;
      const killedAt = Date.now();

      await waitFor(() => readLog(runLog).some((run) => run.event === 'end'), 'another process to finish the job', 30_000);
      await sleep(1_000);
      const runs = readLog(runLog);
      expect(runs.map(({ event }) => event)).toEqual(['start', 'start', 'end']);
      const [, second, end] = runs;
      expect(second.pid).not.toBe(first.pid);
      expect(end.pid).toBe(second.pid);
      expect(second.at).toBeGreaterThanOrEqual(killedAt);
      await waitFor(async () => (await storage.inspect(id)).state === 'gone', 'the job to be done');
    } finally {
      for (const child of children) child.kill('SIGKILL');
      await producer.close();
      await storage.drop();
    }
  });
});

describe.each(engines.filter((engine) => engine.name.startsWith('embedded')))('the only worker SIGKILLed and started again: $name', (engine) => {
  it('the restarted process runs the job again and finishes it', { timeout: 90_000 }, async () => {
    const storage = await engine.create();
    const runLog = join(dir, `restart-${engine.name.replace(/\W+/g, '-')}.log`);
    const env = { ...storage.env, RUN_LOG: runLog };
    const producer = storage.open<{ 'test.sleep': { label: string; ms: number } }>();
    try {
      const first = await startWorker(env);
      const id = await producer.enqueue('test.sleep', { label: 'resumed', ms: 1_000 });
      await waitFor(() => readLog(runLog).some((run) => run.event === 'start'), 'the job to start');
      const gone = new Promise((done) => first.once('exit', done));
      first.kill('SIGKILL');
      await gone;
      const restarted = await startWorker(env);
      await waitFor(() => readLog(runLog).some((run) => run.event === 'end'), 'the restarted process to finish the job', 30_000);
      const runs = readLog(runLog);
      expect(runs.map(({ event, pid }) => [event, pid])).toEqual([
        ['start', first.pid],
        ['start', restarted.pid],
        ['end', restarted.pid],
      ]);
      // The handler logs its end just before the run is recorded as done.
      await waitFor(async () => (await storage.inspect(id)).state === 'gone', 'the finished job to be gone');
    } finally {
      for (const child of children) child.kill('SIGKILL');
      await producer.close();
      await storage.drop();
    }
  });
});

describe.each(engines)('a job whose process dies on every run: $name', (engine) => {
  it('is given up after its third run, and its give-up handler runs once', { timeout: 120_000 }, async () => {
    const storage = await engine.create();
    const runLog = join(dir, `doomed-${engine.name.replace(/\W+/g, '-')}.log`);
    const env = { ...storage.env, RUN_LOG: runLog };
    const producer = storage.open<{ 'test.sleep': { label: string; ms: number } }>();
    const watcher = storage.open<{ 'test.sleep': { label: string; ms: number } }>();
    const givenUp: string[] = [];
    let watcherRuns = 0;
    try {
      const id = await producer.enqueue('test.sleep', { label: 'doomed', ms: 60_000 });
      for (let run = 1; run <= 3; run += 1) {
        const worker = await startWorker(env);
        await waitFor(() => readLog(runLog).filter((entry) => entry.event === 'start').length === run, `run ${run} to start`, 30_000);
        const gone = new Promise((done) => worker.once('exit', done));
        worker.kill('SIGKILL');
        await gone;
      }
      // A process that would run the job a fourth time finds it given up instead.
      watcher.start(
        { 'test.sleep': async () => void (watcherRuns += 1) },
        { concurrency: 1, onGiveUp: { 'test.sleep': async ({ label }, error) => void givenUp.push(`${label}: ${error}`) } },
      );
      await waitFor(() => givenUp.length > 0, 'the job to be given up', 30_000);
      await sleep(1_000);
      expect(givenUp).toEqual([expect.stringMatching(/^doomed: .+/)]);
      expect(watcherRuns).toBe(0);
      expect(readLog(runLog).map((entry) => entry.event)).toEqual(['start', 'start', 'start']);
      expect((await storage.inspect(id)).state).toBe('failed');
    } finally {
      for (const child of children) child.kill('SIGKILL');
      await watcher.close();
      await producer.close();
      await storage.drop();
    }
  });
});
