// `pagegrade worker` through the real binary: its help and usage errors, and a worker process that
// opens (and migrates) the database, says which queue it takes jobs from, and exits 0 on SIGTERM.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../support/databases.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { waitFor } from '../queue/engines.ts';
import { runBinary } from './run-binary.ts';

const BINARY = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));
const redis = await testRedisAvailable();
const scratches: ScratchDatabase[] = [];
afterAll(async () => {
  for (const scratch of scratches) await scratch.drop();
});

/** Starts `pagegrade worker`, waits for its start line, sends SIGTERM, and returns its exit and output. */
async function workerUntilSigterm(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BINARY, 'worker', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    await waitFor(() => output.includes('pagegrade worker: running') || child.exitCode !== null, 'the worker to start', 30_000);
    child.kill('SIGTERM');
    return { code: await exited, output };
  } finally {
    child.kill('SIGKILL');
  }
}

describe('pagegrade worker', () => {
  it('--help names its option and both engines', async () => {
    const run = await runBinary(['worker', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: pagegrade worker [--concurrency <n>]');
    expect(run.stdout).toContain('REDIS_URL');
    expect(run.stdout).toContain('SIGTERM');
  });

  it.each([['0'], ['65'], ['two']])('refuses --concurrency %s with exit code 2', async (value) => {
    const run = await runBinary(['worker', '--concurrency', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--concurrency must be an integer from 1 to 64; got "${value}".`);
  });

  it('runs the embedded engine on the database without REDIS_URL, and exits 0 on SIGTERM', async () => {
    const scratch = await createScratchDatabase('sqlite');
    scratches.push(scratch);
    const { code, output } = await workerUntilSigterm(['--concurrency', '2'], { DATABASE_URL: scratch.databaseUrl });
    expect(output).toContain('pagegrade worker: running up to 2 jobs at once from the embedded queue.');
    expect(output).toContain('pagegrade worker: stopping once the running jobs finish.');
    expect(code).toBe(0);
  });

  it.skipIf(!redis)('takes jobs from BullMQ with REDIS_URL; PAGEGRADE_WORKERS=0 does not idle it', async () => {
    const scratch = await createScratchDatabase('sqlite');
    scratches.push(scratch);
    const { code, output } = await workerUntilSigterm([], { DATABASE_URL: scratch.databaseUrl, REDIS_URL: TEST_REDIS_URL, PAGEGRADE_WORKERS: '0' });
    expect(output).toContain('pagegrade worker: running up to 4 jobs at once from the bullmq queue.');
    expect(code).toBe(0);
  });
});
