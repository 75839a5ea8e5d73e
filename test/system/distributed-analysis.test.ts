// Background analysis spread over machines (docs/production.md, "Several processes"), as separate processes on
// PostgreSQL and Redis: two servers that only take requests (PAGEGRADE_WORKERS=0) and two `pagegrade
// worker` processes. Every report is analysed exactly once (its page fetched once); a worker killed
// mid-analysis leaves its jobs to the other, which finishes them, nothing lost and nothing doubled.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../support/databases.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { goodPage, holdGate, html, startSite, type Handler, type Site } from '../support/site-server.ts';
import { callApi, killProcess, newApiKey, startServerProcess, startWorkerProcess, stopAll, type ServerProcess } from '../support/processes.ts';
import { waitFor } from '../queue/engines.ts';
import { createDb } from '../../src/db/database.ts';

const available = Boolean(process.env.TEST_DATABASE_URL) && (await testRedisAvailable());

describe.skipIf(!available)('background analysis over processes on PostgreSQL and Redis', () => {
  let scratch: ScratchDatabase | undefined;
  let site: Site | undefined;
  const adminKey = newApiKey();

  afterEach(async () => {
    stopAll();
    await site?.close();
    await scratch?.drop();
    site = scratch = undefined;
  });
  afterAll(stopAll);

  /** Settings every process of one installation shares; a queue of its own in the shared Redis. */
  async function installation(): Promise<Record<string, string>> {
    scratch = await createScratchDatabase('postgres');
    return {
      DATABASE_URL: scratch.databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      PAGEGRADE_QUEUE_PREFIX: `test-${process.pid}-${randomBytes(4).toString('hex')}`,
      PAGEGRADE_SECRET_KEY: randomBytes(32).toString('base64url'),
      PAGEGRADE_ADMIN_KEY: adminKey,
      PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
      PAGEGRADE_RATE_LIMIT: '100000',
      PAGEGRADE_MAX_ANALYSES_PER_ACCOUNT: '1000',
      PAGEGRADE_JOB_LEASE_MS: '2000',
    };
  }

  /** The first server migrates and makes the admin; the second starts on the finished database. */
  async function servers(env: Record<string, string>): Promise<ServerProcess[]> {
    const first = await startServerProcess({ ...env, PAGEGRADE_WORKERS: '0' });
    const second = await startServerProcess({ ...env, PAGEGRADE_WORKERS: '0' });
    return [first, second];
  }

  const api = (server: ServerProcess, method: string, path: string, form?: Record<string, string>) => callApi(server, adminKey, method, path, form);

  async function countInState(server: ServerProcess, state: string): Promise<number> {
    return (await api(server, 'GET', `/api/v1/reports?state=${state}&per_page=10`)).body.meta.total;
  }

  /** Each path's page, counting how often it was fetched. */
  function countingSite(paths: string[], handlerFor: (path: string) => Handler) {
    const fetched = new Map<string, number>(paths.map((path) => [path, 0]));
    for (const path of paths) {
      const handler = handlerFor(path);
      site!.route(path, (request, response) => {
        fetched.set(path, fetched.get(path)! + 1);
        handler(request, response);
      });
    }
    return fetched;
  }

  it('200 async reports through two API processes and two workers: each analysed exactly once', { timeout: 180_000 }, async () => {
    const env = await installation();
    site = await startSite();
    const paths = Array.from({ length: 200 }, (_, index) => `/page-${index}`);
    const fetched = countingSite(paths, () => html(goodPage()));
    const api0 = await servers(env);
    await Promise.all([startWorkerProcess(env, 4), startWorkerProcess(env, 4)]);

    const ids: number[] = [];
    for (let start = 0; start < paths.length; start += 20) {
      const batch = paths.slice(start, start + 20).map(async (path, index) => {
        const created = await api(api0[index % 2], 'POST', '/api/v1/reports', { url: site!.url(path), async: '1' });
        expect(created.status, JSON.stringify(created.body)).toBe(202);
        return created.body.data.id as number;
      });
      ids.push(...(await Promise.all(batch)));
    }
    expect(new Set(ids).size).toBe(200);
    await waitFor(async () => (await countInState(api0[0], 'done')) === 200, 'all 200 reports to be done', 150_000);
    expect(await countInState(api0[1], 'failed')).toBe(0);
    expect([...fetched.values()].every((count) => count === 1), JSON.stringify([...fetched].filter(([, count]) => count !== 1))).toBe(true);
    const projects = (await api(api0[1], 'GET', '/api/v1/projects')).body.data;
    expect(projects).toEqual([expect.objectContaining({ reports_count: 200, result_counts: expect.objectContaining({ good: 200 }) })]);
  });

  it('a worker SIGKILLed mid-analysis: the other finishes its jobs, once each', { timeout: 120_000 }, async () => {
    const env = await installation();
    site = await startSite();
    const gate = holdGate();
    const paths = Array.from({ length: 6 }, (_, index) => `/held-${index}`);
    const fetched = countingSite(paths, () => gate.hold(html(goodPage())));
    const [server] = await servers(env);
    // Three jobs at most each: the six are split between the two, and the victim holds three.
    const workers = await Promise.all([startWorkerProcess(env, 3), startWorkerProcess(env, 3)]);

    const ids = await Promise.all(
      paths.map(async (path) => (await api(server, 'POST', '/api/v1/reports', { url: site!.url(path), async: '1' })).body.data.id as number),
    );
    await waitFor(() => [...fetched.values()].every((count) => count === 1), 'every page to be asked for');
    expect(await countInState(server, 'running')).toBe(6);
    await killProcess(workers[0]);
    gate.release();

    await waitFor(async () => (await countInState(server, 'done')) === 6, 'the six reports to be done', 90_000);
    // The victim's three pages were asked for again by the survivor; the survivor's own, once.
    expect([...fetched.values()].sort()).toEqual([1, 1, 1, 2, 2, 2]);
    const listed = (await api(server, 'GET', '/api/v1/reports')).body;
    expect(listed.data.map((report: { id: number }) => report.id).sort((a: number, b: number) => a - b)).toEqual(ids.sort((a, b) => a - b));
    expect(listed.data.every((report: { result: string | null; last_error: unknown }) => report.result === 'good' && report.last_error === null)).toBe(true);
  });

  it('a due schedule is run once by one of two workers, slot after slot', { timeout: 90_000 }, async () => {
    // The slots are made due in the database rather than waited for: the workers look every 200 ms,
    // so a slot that two of them could both take is looked at by each several times a second.
    const env = { ...(await installation()), PAGEGRADE_MIN_SCHEDULE_MINUTES: '1', PAGEGRADE_SCHEDULER_INTERVAL_MS: '200' };
    site = await startSite();
    const fetched = countingSite(['/scheduled'], () => html(goodPage()));
    const [server] = await servers(env);
    await Promise.all([startWorkerProcess(env, 2), startWorkerProcess(env, 2)]);
    // Once a year: the only slots that come due during the test are those it makes due.
    const created = await api(server, 'POST', '/api/v1/reports', { url: site!.url('/scheduled'), schedule: '0 0 1 1 *' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as number;
    const runs = async () => (await api(server, 'GET', `/api/v1/reports/${id}/runs`)).body.data as { trigger: string }[];
    const handle = createDb(scratch!.databaseUrl);
    try {
      for (const slot of [1, 2]) {
        await handle.db.updateTable('reports').set({ next_run_at: new Date(Date.now() - 1_000).toISOString() }).where('id', '=', id).execute();
        await waitFor(async () => (await runs()).length === slot + 1, `scheduled run ${slot}`, 30_000);
        // Each worker looks at least five more times; none may take the slot again.
        await new Promise((wait) => setTimeout(wait, 1_000));
        expect((await runs()).length).toBe(slot + 1);
        const next = await handle.db.selectFrom('reports').select('next_run_at').where('id', '=', id).executeTakeFirstOrThrow();
        expect(Date.parse(next.next_run_at!)).toBeGreaterThan(Date.now());
      }
    } finally {
      await handle.destroy();
    }
    expect((await runs()).map((run) => run.trigger)).toEqual(['schedule', 'schedule', 'create']);
    // One fetch per run: no slot was run by both workers.
    expect(fetched.get('/scheduled')).toBe(3);
  });
});
