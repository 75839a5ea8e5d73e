// One crawl spread over two `pagegrade worker` processes through BullMQ (docs/api.md "Site audits (crawls)": the
// work jobs run "on any process of either queue engine", politeness decided by the claims in the
// database): a server that only takes requests (PAGEGRADE_WORKERS=0) and two workers of one job each.
//
// Which worker fetched a page is told by the site itself: each worker runs with a User-Agent of its
// own (PAGEGRADE_USER_AGENT; both keep the product token "pagegrade" robots.txt groups name), and the
// site records the User-Agent of every request. One job at a time per worker, and the crawl's two
// work jobs (PAGEGRADE_CRAWL_CONCURRENCY=2) run for a whole slice each, so while one worker holds a
// job the other job can only run on the other worker: both take part, by construction.
//
// The database is PostgreSQL when TEST_DATABASE_URL is set, else a SQLite file the three processes
// share. Skipped without Redis, unless PAGEGRADE_REQUIRE_REDIS=1.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../support/databases.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { html } from '../support/site-server.ts';
import { newApiKey, startServerProcess, startWorkerProcess, stopAll, type ServerProcess } from '../support/processes.ts';
import { delayed, everyRow, isAuxPath, maxOverlap, processApi, simplePage, startRecordingSite, type RecordingSite } from '../support/crawl-fixtures.ts';
import { waitFor } from '../queue/engines.ts';

const available = await testRedisAvailable();

describe.skipIf(!available)('a crawl over two BullMQ workers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-crawl-bullmq-'));
  let scratch: ScratchDatabase | undefined;
  let site: RecordingSite | undefined;

  afterAll(async () => {
    stopAll();
    await site?.close();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('both workers crawl, each page once, never more than PAGEGRADE_CRAWL_CONCURRENCY requests at once', { timeout: 120_000 }, async () => {
    const adminKey = newApiKey();
    scratch = process.env.TEST_DATABASE_URL ? await createScratchDatabase('postgres') : undefined;
    const env = {
      DATABASE_URL: scratch?.databaseUrl ?? `sqlite:${join(dir, 'pagegrade.db')}`,
      REDIS_URL: TEST_REDIS_URL,
      PAGEGRADE_QUEUE_PREFIX: `test-crawl-${process.pid}-${randomBytes(4).toString('hex')}`,
      PAGEGRADE_SECRET_KEY: randomBytes(32).toString('base64url'),
      PAGEGRADE_ADMIN_KEY: adminKey,
      PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
      PAGEGRADE_RATE_LIMIT: '100000',
      PAGEGRADE_JOB_LEASE_MS: '5000',
      PAGEGRADE_CRAWL_CONCURRENCY: '2',
    };
    const agents = ['pagegrade/0.1 (crawl test worker A)', 'pagegrade/0.1 (crawl test worker B)'];
    const paths = ['/', ...Array.from({ length: 59 }, (_, index) => `/w${index}`)];
    site = await startRecordingSite({ '/': delayed(40, html(simplePage('Home of the shared site', paths.slice(1)))) });
    for (const path of paths.slice(1)) site.route(path, delayed(40, html(simplePage(`Page ${path} of the shared site`, ['/']))));

    const server: ServerProcess = await startServerProcess({ ...env, PAGEGRADE_WORKERS: '0' });
    await Promise.all(agents.map((agent) => startWorkerProcess({ ...env, PAGEGRADE_USER_AGENT: agent }, 1)));
    const api = processApi(() => server.origin, adminKey);

    const started = await api('POST', '/api/v1/crawls', { url: site.url('/'), max_pages: 100, sitemap: 0 });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const id = started.body.data.id as number;
    let crawl: any;
    await waitFor(
      async () => {
        crawl = (await api.get(`/api/v1/crawls/${id}`)).data;
        return ['done', 'failed', 'cancelled'].includes(crawl.state);
      },
      'the crawl to end',
      90_000,
    );
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    expect({ found: crawl.pages_found, crawled: crawl.pages_crawled, failed: crawl.pages_failed }).toEqual({ found: 60, crawled: 60, failed: 0 });

    const requested = site.log.filter((entry) => !isAuxPath(entry.path));
    // Each page once, whichever worker asked.
    expect(requested.map((entry) => entry.path).sort()).toEqual([...paths].sort());
    // Both workers asked for pages (and nobody else did).
    const byAgent = new Map(agents.map((agent) => [agent, requested.filter((entry) => entry.userAgent === agent).length]));
    expect([...byAgent.values()].reduce((sum, count) => sum + count, 0)).toBe(60);
    expect([...byAgent.values()].every((count) => count > 0), JSON.stringify([...byAgent])).toBe(true);
    // The host's limit holds across both processes.
    expect(maxOverlap(requested)).toBeLessThanOrEqual(2);

    const reports = await everyRow(api.get, '/api/v1/reports');
    expect(reports.map((report) => new URL(report.url).pathname).sort()).toEqual([...paths].sort());
    expect(reports.filter((report) => report.runs_count !== 1)).toEqual([]);
    console.info(`crawl-bullmq: pages per worker ${JSON.stringify([...byAgent.values()])}, at most ${maxOverlap(requested)} at once`);
  });
});
