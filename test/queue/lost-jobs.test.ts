// Jobs the queue lost (docs/production.md, "When the queue loses jobs"), on the embedded engine (each
// dialect) and on BullMQ (the test Redis, a key prefix of its own): the sweep leaves a report whose
// job the queue still holds alone, queues a lost one again with its trigger as its next attempt, and
// fails it after the third; results=1 on a lost report is accepted (200 or 202) where one whose job
// is held is a 409; lost crawls are resumed; a process that runs jobs sweeps when it starts.
// Nothing waits out the lease: "unchanged for longer than the lease" is made by ageing the row.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDb, type Database, type DbHandle } from '../../src/db/database.ts';
import { buildApp } from '../../src/http/app.ts';
import { LOST_ANALYSIS } from '../../src/services/lost-jobs.ts';
import { startReportRun } from '../../src/repositories/job-generation.repository.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { createScratchDatabase, TEST_SECRET_KEY, testDialects } from '../support/databases.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { body, call, createReport, showReport, type Account } from '../support/api-fixtures.ts';
import { waitFor } from './engines.ts';

/** How a test reaches into the queue engine: what it holds under an id, and losing everything. */
interface QueueUnderTest {
  name: string;
  /** Config for the app: the engine, with storage of its own. */
  settings(): Partial<Config>;
  /** The payload of the job the queue holds under `jobId`, or undefined. */
  job(t: TestApp, db: Kysely<Database>, jobId: string): Promise<Record<string, unknown> | undefined>;
  /** Everything the queue holds goes, as when Redis restarts empty. */
  loseEverything(t: TestApp, db: Kysely<Database>): Promise<void>;
  /** After the app closed. */
  cleanUp(t: TestApp): Promise<void>;
}

const embedded = (dialect: 'sqlite' | 'postgres'): QueueUnderTest & { dialect: typeof dialect } => ({
  name: `embedded on ${dialect}`,
  dialect,
  settings: () => ({}),
  async job(_t, db, jobId) {
    const row = await db.selectFrom('jobs').select(['payload', 'state']).where('key', '=', jobId).executeTakeFirst();
    return row === undefined || row.state === 'failed' ? undefined : JSON.parse(row.payload);
  },
  async loseEverything(_t, db) {
    await db.deleteFrom('jobs').execute();
  },
  async cleanUp() {},
});

function redisQueues(t: TestApp): Queue[] {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  const connection = { host: hostname, port: Number(port) || 6379 };
  return ['pagegrade', 'pagegrade-webhooks'].map((name) => new Queue(name, { connection, prefix: t.config.queuePrefix }));
}

const bullmq: QueueUnderTest & { dialect: 'sqlite' } = {
  name: 'bullmq on redis',
  dialect: 'sqlite',
  settings: () => ({ redisUrl: TEST_REDIS_URL, queuePrefix: `test-lost-${process.pid}-${randomBytes(4).toString('hex')}` }),
  async job(t, _db, jobId) {
    const [main, lane] = redisQueues(t);
    try {
      const job = await main.getJob(jobId);
      if (job === undefined) return undefined;
      return (await job.isFailed()) ? undefined : job.data;
    } finally {
      await main.close();
      await lane.close();
    }
  },
  async loseEverything(t) {
    for (const queue of redisQueues(t)) {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  },
  async cleanUp(t) {
    await this.loseEverything(t, undefined as never);
  },
};

const queuesUnderTest = [...testDialects().map(embedded), ...((await testRedisAvailable()) ? [bullmq] : [])];

describe.each(queuesUnderTest)('jobs the queue lost: $name', (engine) => {
  let t: TestApp;
  let handle: DbHandle;
  let site: Site;

  beforeAll(async () => {
    site = await startSite({ '/page': html(goodPage()) });
  });
  afterAll(async () => {
    await site?.close();
  });
  afterEach(async () => {
    await handle?.destroy();
    if (t !== undefined) {
      const app = t;
      t = undefined!;
      await app.close();
      await engine.cleanUp(app);
    }
  });

  /** An app that takes no jobs itself: the test sweeps, and jobs stay where the queue put them. */
  async function requestsOnly(): Promise<TestApp> {
    t = await startTestApp(engine.dialect, { workers: 0, ...engine.settings() });
    handle = createDb(t.config.databaseUrl!);
    return t;
  }

  const sweep = () => t.app.services.lostJobs.sweep();

  async function queuedReport(account: Account): Promise<number> {
    const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/page'), async: 1 });
    expect(response.statusCode, response.body).toBe(202);
    return body(response).data.id;
  }

  /** Unchanged for an hour: far longer than the lease. */
  async function age(id: number): Promise<void> {
    await handle.db.updateTable('reports').set({ updated_at: new Date(Date.now() - 3_600_000).toISOString() }).where('id', '=', id).execute();
  }

  async function jobColumns(id: number) {
    return handle.db
      .selectFrom('reports')
      .select(['state', 'last_error', 'job_generation', 'job_attempt', 'job_trigger'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  it('leaves a report whose job the queue holds alone, however long it waited; results=1 on it is a 409', async () => {
    await requestsOnly();
    const account = await t.createAccount();
    const id = await queuedReport(account);
    await age(id);
    expect(await engine.job(t, handle.db, `report-${id}-1`)).toMatchObject({ reportId: id, trigger: 'create', generation: 1 });
    expect(await sweep()).toEqual({ requeued: 0, failed: 0, resumed: 0 });
    expect(await jobColumns(id)).toMatchObject({ state: 'queued', job_generation: 1, job_attempt: 1 });
    for (const fields of [{ results: 1 }, { results: 1, async: 1 }] as Record<string, number>[]) {
      const response = await call(t, account, 'PUT', `/api/v1/reports/${id}`, fields);
      expect(response.statusCode, response.body).toBe(409);
    }
  });

  it('queues a lost report again with its trigger, as its next attempt, and fails it after the third', async () => {
    await requestsOnly();
    const account = await t.createAccount();
    const id = await queuedReport(account);
    // Not yet past the lease: a report just queued is never taken for lost.
    await engine.loseEverything(t, handle.db);
    expect(await sweep()).toMatchObject({ requeued: 0 });

    for (const attempt of [2, 3]) {
      await age(id);
      expect(await sweep()).toEqual({ requeued: 1, failed: 0, resumed: 0 });
      expect(await jobColumns(id)).toMatchObject({ state: 'queued', job_generation: attempt, job_attempt: attempt, last_error: null });
      expect(await engine.job(t, handle.db, `report-${id}-${attempt}`)).toMatchObject({ reportId: id, trigger: 'create', generation: attempt });
      // Once queued again, it is held: another sweep, however late, adds nothing.
      await age(id);
      expect(await sweep()).toMatchObject({ requeued: 0, failed: 0 });
      await engine.loseEverything(t, handle.db);
    }
    await age(id);
    expect(await sweep()).toEqual({ requeued: 0, failed: 1, resumed: 0 });
    const report = await showReport(t, account, id);
    expect(report).toMatchObject({ state: 'failed', last_error: { message: LOST_ANALYSIS } });
    expect(report.last_error.message).toMatch(/^The analysis was lost/);
    // A job of an older generation that turns up does nothing.
    expect(await startReportRun(handle.db, account.id, id, 2, new Date().toISOString())).toBe(false);
  });

  it('keeps the trigger of a lost results=1: the new job is a regenerate', async () => {
    await requestsOnly();
    const account = await t.createAccount();
    const { id } = await createReport(t, account, site.url('/page'));
    const queued = await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1, async: 1 });
    expect(queued.statusCode, queued.body).toBe(202);
    await engine.loseEverything(t, handle.db);
    await age(id);
    expect(await sweep()).toMatchObject({ requeued: 1 });
    expect(await engine.job(t, handle.db, `report-${id}-2`)).toMatchObject({ trigger: 'regenerate', generation: 2 });
    expect(await jobColumns(id)).toMatchObject({ job_trigger: 'regenerate', job_attempt: 2 });
  });

  it('results=1 on a lost report: 200 with the new run, and it takes the lost analysis\'s place', async () => {
    await requestsOnly();
    const account = await t.createAccount();
    const id = await queuedReport(account);
    await engine.loseEverything(t, handle.db);
    // Lost, but not yet for longer than the lease: still 409.
    expect((await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1 })).statusCode).toBe(409);
    await age(id);
    const response = await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1 });
    expect(response.statusCode, response.body).toBe(200);
    expect(body(response).data).toMatchObject({ state: 'done', runs_count: 1, last_error: null, result: 'good' });
    // The lost analysis's generation is over: the sweep has nothing to queue.
    expect(await sweep()).toMatchObject({ requeued: 0, failed: 0 });
  });

  it('results=1&async=1 on a lost report: 202 queued, under a new job', async () => {
    await requestsOnly();
    const account = await t.createAccount();
    const id = await queuedReport(account);
    await engine.loseEverything(t, handle.db);
    await age(id);
    const response = await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1, async: 1 });
    expect(response.statusCode, response.body).toBe(202);
    expect(body(response).data).toMatchObject({ state: 'queued', runs_count: 0 });
    const { job_generation: generation } = await jobColumns(id);
    expect(await engine.job(t, handle.db, `report-${id}-${generation}`)).toMatchObject({ reportId: id, trigger: 'regenerate', generation });
    expect(await jobColumns(id)).toMatchObject({ state: 'queued', job_attempt: 1 });
  });

  it('resumes a crawl none of whose jobs the queue holds: a queued one starts, a running one goes on', async () => {
    await requestsOnly();
    const account = await t.createAccount();
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    const crawl = (state: 'queued' | 'running', originFacts: string | null) => ({
      organization_id: account.organization,
      url: site.url('/page'),
      project: new URL(site.url('/page')).host,
      state,
      max_pages: 5,
      max_depth: 2,
      use_sitemap: 0,
      privacy: 0,
      render: 0,
      origin_facts: originFacts,
      created_at: longAgo,
    });
    const [queued, running, recent] = await handle.db
      .insertInto('crawls')
      .values([crawl('queued', null), crawl('running', '{}'), { ...crawl('queued', null), created_at: new Date().toISOString() }])
      .returning('id')
      .execute();
    expect(await sweep()).toEqual({ requeued: 0, failed: 0, resumed: 2 });
    expect(await engine.job(t, handle.db, `crawl-${queued.id}-1-start`)).toEqual({ crawlId: queued.id, generation: 1 });
    const slots = t.config.crawlConcurrency;
    for (let slot = 0; slot < slots; slot++) {
      expect(await engine.job(t, handle.db, `crawl-${running.id}-1-work-${slot}-0`)).toEqual({ crawlId: running.id, generation: 1, slot, turn: 0 });
    }
    expect(await engine.job(t, handle.db, `crawl-${recent.id}-1-start`)).toBeUndefined();
    // Their new jobs are held: nothing more is queued, however long they wait.
    await handle.db.updateTable('crawls').set({ jobs_queued_at: longAgo }).where('id', 'in', [queued.id, running.id]).execute();
    expect(await sweep()).toMatchObject({ resumed: 0 });
  });
});

describe.each(queuesUnderTest)('a process that runs jobs sweeps when it starts: $name', (engine) => {
  const apps: FastifyInstance[] = [];
  let site: Site;
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await site?.close();
  });

  it('a report lost while no process ran jobs is done soon after one starts', async () => {
    site = await startSite({ '/page': html(goodPage()) });
    const scratch = await createScratchDatabase(engine.dialect);
    const config: Config = {
      ...loadConfig({}),
      databaseUrl: scratch.databaseUrl,
      logLevel: false,
      allowPrivateUrls: true,
      secretKey: TEST_SECRET_KEY,
      analysisThreads: 1,
      ...engine.settings(),
    };
    const open = async (workers: number) => {
      const app = await buildApp({ ...config, workers });
      apps.push(app);
      return app;
    };
    const handle = createDb(scratch.databaseUrl);
    const fake = { config } as TestApp;
    try {
      const requestsOnly = await open(0);
      const { apiKey } = await requestsOnly.services.accounts.createUser(`sweep-${randomBytes(4).toString('hex')}@example.test`, false);
      const auth = { authorization: `Bearer ${apiKey}` };
      const created = await requestsOnly.inject({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `url=${encodeURIComponent(site.url('/page'))}&async=1`,
      });
      expect(created.statusCode, created.body).toBe(202);
      const id = created.json().data.id;
      await engine.loseEverything(fake, handle.db);
      await handle.db.updateTable('reports').set({ updated_at: new Date(Date.now() - 3_600_000).toISOString() }).where('id', '=', id).execute();

      await open(1);
      await waitFor(async () => {
        const shown = await requestsOnly.inject({ method: 'GET', url: `/api/v1/reports/${id}`, headers: { ...auth, accept: 'application/json' } });
        return shown.json().data.state === 'done';
      }, 'the lost report to be done');
      const runs = await requestsOnly.inject({ method: 'GET', url: `/api/v1/reports/${id}/runs`, headers: { ...auth, accept: 'application/json' } });
      expect(runs.json().data).toEqual([expect.objectContaining({ trigger: 'create' })]);
    } finally {
      for (const app of apps.splice(0)) await app.close();
      await handle.destroy();
      await engine.cleanUp(fake);
      await scratch.drop();
    }
  });
});
