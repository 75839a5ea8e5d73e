// The app runs background jobs itself (PAGEGRADE_WORKERS at once), takes none with
// PAGEGRADE_WORKERS=0 so that another process on the same database does, and on close lets a
// running job finish before the database goes.
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { createScratchDatabase, TEST_SECRET_KEY, testDialects, type ScratchDatabase } from '../support/databases.ts';
import { sleep, waitFor } from '../queue/engines.ts';

describe.each(testDialects())('background jobs in the server [%s]', (dialect) => {
  let scratch: ScratchDatabase;
  const apps: FastifyInstance[] = [];
  const started: string[] = [];
  const runs: string[] = [];

  async function app(workers: number, jobMs = 0): Promise<FastifyInstance> {
    scratch ??= await createScratchDatabase(dialect);
    const built = await buildApp(
      { ...loadConfig({}), databaseUrl: scratch.databaseUrl, logLevel: false, workers, secretKey: TEST_SECRET_KEY },
      {
        extraJobHandlers: {
          'test.note': async ({ note }) => {
            started.push(String(note));
            await sleep(jobMs);
            runs.push(String(note));
          },
        },
      },
    );
    apps.push(built);
    return built;
  }

  afterEach(async () => {
    for (const each of apps.splice(0)) await each.close();
    await scratch?.drop();
    scratch = undefined!;
    started.length = 0;
    runs.length = 0;
  });

  it('runs a job enqueued through its services', async () => {
    const server = await app(2);
    await server.services.background.enqueue('test.note', { note: 'hello' });
    await waitFor(() => runs.length === 1, 'the job to run');
    expect(runs).toEqual(['hello']);
  });

  it('with PAGEGRADE_WORKERS=0 takes no job; a process with workers on the same database does', async () => {
    const requestsOnly = await app(0);
    await requestsOnly.services.background.enqueue('test.note', { note: 'for a worker' });
    await sleep(1_500);
    expect(runs).toEqual([]);
    await app(1);
    await waitFor(() => runs.length === 1, 'the other process to run the job');
    expect(runs).toEqual(['for a worker']);
  });

  it('close() lets the running job finish', async () => {
    const server = await app(1, 800);
    await server.services.background.enqueue('test.note', { note: 'finished' });
    await waitFor(() => started.length === 1, 'the job to start');
    await server.close();
    apps.length = 0;
    expect(runs).toEqual(['finished']);
  });
});
