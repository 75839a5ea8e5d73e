// A crawl survives its server being SIGKILLed (docs/api.md "Site audits (crawls)": the frontier is in the database,
// so a crawl "survives a restart"). A server process on SQLite crawls a slowed site of 60 pages; it is
// killed a third of the way in and started again on the same database, and the crawl finishes: every
// page crawled, each asked for once but for the few in flight at the kill, none stored twice.
//
// The pages in flight at the kill keep their claims until those run out (crawl-jobs.ts claimMs:
// max(30 s, 2 x fetch timeout + 10 s), services/index.ts), and while they hold, they fill the crawl's
// slots: the restarted server can take nothing for up to 30 s. This test therefore takes about 40 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { html } from '../support/site-server.ts';
import { killProcess, newApiKey, startServerProcess, stopAll, type ServerProcess } from '../support/processes.ts';
import { delayed, everyRow, isAuxPath, processApi, simplePage, startRecordingSite } from '../support/crawl-fixtures.ts';
import { waitFor } from '../queue/engines.ts';

const dir = mkdtempSync(join(tmpdir(), 'pagegrade-crawl-restart-'));
afterAll(() => {
  stopAll();
  rmSync(dir, { recursive: true, force: true });
});

const CONCURRENCY = 2;

it('a server SIGKILLed mid-crawl finishes the crawl once started again, each page crawled once', { timeout: 150_000 }, async () => {
  const adminKey = newApiKey();
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'pagegrade.db')}`,
    PAGEGRADE_ADMIN_KEY: adminKey,
    PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
    PAGEGRADE_RATE_LIMIT: '100000',
    PAGEGRADE_WORKERS: '3',
    // The dead server's queue jobs are taken again soon; its page claims last claimMs (see above).
    PAGEGRADE_JOB_LEASE_MS: '1500',
    PAGEGRADE_FETCH_TIMEOUT_MS: '3000',
    // Claims of the pages in flight at the kill run out soon, so the restarted server retakes them.
    PAGEGRADE_CRAWL_CLAIM_MS: '4000',
    PAGEGRADE_CRAWL_CONCURRENCY: String(CONCURRENCY),
  };
  const paths = ['/', ...Array.from({ length: 59 }, (_, index) => `/p${index}`)];
  const site = await startRecordingSite({ '/': delayed(50, html(simplePage('Home of the restarted site', paths.slice(1)))) });
  for (const path of paths.slice(1)) site.route(path, delayed(50, html(simplePage(`Page ${path} of the restarted site`, ['/']))));
  let server: ServerProcess | undefined;
  const api = processApi(() => server!.origin, adminKey);
  try {
    server = await startServerProcess(env);
    const started = await api('POST', '/api/v1/crawls', { url: site.url('/'), max_pages: 100, sitemap: 0 });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const id = started.body.data.id as number;
    await waitFor(async () => (await api.get(`/api/v1/crawls/${id}`)).data.pages_crawled >= 20, 'a third of the crawl', 60_000);
    await killProcess(server);
    const askedAtKill = site.requests.filter((path) => !isAuxPath(path)).length;

    const restartedAt = Date.now();
    server = await startServerProcess(env);
    const crawledAtKill = (await api.get(`/api/v1/crawls/${id}`)).data.pages_crawled as number;
    expect(crawledAtKill).toBeGreaterThanOrEqual(20);
    expect(crawledAtKill).toBeLessThan(60);
    let crawl: any;
    await waitFor(
      async () => {
        crawl = (await api.get(`/api/v1/crawls/${id}`)).data;
        return ['done', 'failed', 'cancelled'].includes(crawl.state);
      },
      'the restarted server to finish the crawl',
      120_000,
    );
    const restartToDone = Date.now() - restartedAt;
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    expect({ found: crawl.pages_found, crawled: crawl.pages_crawled, failed: crawl.pages_failed }).toEqual({ found: 60, crawled: 60, failed: 0 });

    // Each page asked for once, but for those in flight at the kill (at most the crawl's concurrency),
    // asked for again after it; none more than twice.
    const counts = site.counts();
    expect(paths.filter((path) => !counts.has(path))).toEqual([]);
    const repeated = paths.filter((path) => counts.get(path)! > 1);
    expect(repeated.length, `asked twice: ${repeated.join(', ')}`).toBeLessThanOrEqual(CONCURRENCY);
    expect(repeated.every((path) => counts.get(path) === 2)).toBe(true);
    const firstAsked = site.requests.filter((path) => !isAuxPath(path)).slice(0, askedAtKill);
    expect(repeated.every((path) => firstAsked.includes(path))).toBe(true);

    // Each page one report with one run: nothing stored twice.
    const pages = await everyRow(api.get, `/api/v1/crawls/${id}/pages`);
    expect(pages.map((page) => new URL(page.url).pathname).sort()).toEqual([...paths].sort());
    expect(pages.every((page) => page.report_id !== null && page.status_code === 200)).toBe(true);
    const reports = await everyRow(api.get, '/api/v1/reports');
    expect(reports.map((report) => new URL(report.url).pathname).sort()).toEqual([...paths].sort());
    expect(reports.filter((report) => report.runs_count !== 1)).toEqual([]);
    expect(new Set(pages.map((page) => page.report_id)).size).toBe(60);
    console.info(`crawl-restart: ${crawledAtKill} pages crawled at the kill, ${repeated.length} asked again, done ${restartToDone} ms after the restart`);
  } finally {
    await site.close();
  }
});
