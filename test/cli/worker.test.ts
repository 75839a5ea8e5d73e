// `pagegrade worker`, in-process through runCli: its help and usage errors. A worker running until a
// real SIGTERM needs a process of its own: test/system/cli-worker.test.ts.
import { describe, expect, it } from 'vitest';
import { runInProcess } from './run-cli.ts';

describe('pagegrade worker', () => {
  it('--help names its option and both engines', async () => {
    const run = await runInProcess(['worker', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: pagegrade worker [--concurrency <n>]');
    expect(run.stdout).toContain('REDIS_URL');
    expect(run.stdout).toContain('SIGTERM');
  });

  it.each([['0'], ['65'], ['two']])('refuses --concurrency %s with exit code 2', async (value) => {
    const run = await runInProcess(['worker', '--concurrency', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--concurrency must be an integer from 1 to 64; got "${value}".`);
  });
});
