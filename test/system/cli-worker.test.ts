// `pagegrade worker` through the real binary, on purpose: a worker process that opens (and migrates)
// the database, says which queue it takes jobs from, and exits 0 on a real SIGTERM. Its help and usage
// errors run in-process (test/cli/worker.test.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../support/databases.ts';
import { assertBuilt } from '../support/processes.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { waitFor } from '../queue/engines.ts';

const BINARY = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));
const redis = await testRedisAvailable();
const scratches: ScratchDatabase[] = [];
afterAll(async () => {
  for (const scratch of scratches) await scratch.drop();
});

/** Starts `pagegrade worker`, waits for its start line, sends SIGTERM, and returns its exit and output. */
async function workerUntilSigterm(args: string[], env: Record<string, string>) {
  // The binary runs the compiled code: say so plainly when dist/ is missing or stale.
  assertBuilt();
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

describe('pagegrade worker, the real binary until SIGTERM', () => {
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
