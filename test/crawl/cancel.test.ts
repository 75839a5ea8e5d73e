// Cancelling a crawl mid-way (docs/api.md "Site audits (crawls)"): DELETE while pages are being fetched answers 200,
// the crawl is gone, no request reaches the site once the ones in flight are answered, the reports
// already made stay in their project, and subscribers hear crawl.completed with state cancelled; a
// crawl that ends normally sends crawl.completed with state done and the crawl as its data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectNotFound, type Account, type Body } from '../support/api-fixtures.ts';
import { holdGate, html } from '../support/site-server.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { projectReports, showCrawl, simplePage, startCrawl, startRecordingSite, untilCrawlEnded, type RecordingSite } from '../support/crawl-fixtures.ts';
import { sleep, waitFor } from '../queue/engines.ts';

describe.each(testDialects())('cancelling a crawl, and crawl.completed [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  let receiver: Receiver;
  const sites: RecordingSite[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 2 });
    account = await t.createAccount('canceller');
    receiver = await startReceiver([204]);
    const hook = await call(t, account, 'POST', '/api/v1/webhooks', { url: receiver.url(), events: 'crawl.completed' });
    expect(hook.statusCode, hook.body).toBe(201);
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    for (const site of sites) await site.close();
  });

  /** The crawl.completed deliveries for crawl `id`, once `count` of them arrived. */
  async function deliveriesFor(id: number, count = 1): Promise<Body[]> {
    const matching = () =>
      receiver.received.map((delivery) => JSON.parse(delivery.body)).filter((payload) => payload.type === 'crawl.completed' && payload.data?.id === id);
    await waitFor(() => matching().length >= count, `crawl.completed for crawl ${id}`);
    return matching();
  }

  it('a crawl that ends: crawl.completed with state done and the crawl as data', async () => {
    const site = await startRecordingSite({
      '/': html(simplePage('Home of the finished site', ['/a'])),
      '/a': html(simplePage('Page a of the finished site', ['/'])),
    });
    sites.push(site);
    const queued = await startCrawl(t, account, { url: site.url('/'), sitemap: 0 });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl).toMatchObject({ state: 'done', pages_crawled: 2 });
    const [delivery] = await deliveriesFor(queued.id);
    expect(delivery.data).toEqual(crawl);
    expect(Date.parse(delivery.timestamp)).toBeGreaterThanOrEqual(Date.parse(crawl.finished_at) - 1000);
  });

  it('DELETE mid-crawl: 200, the crawl gone, no request after those in flight, the reports kept, crawl.completed cancelled', async () => {
    const gate = holdGate();
    const held = Array.from({ length: 10 }, (_, index) => `/held/${index}`);
    const site = await startRecordingSite({ '/': html(simplePage('Home of the cancelled site', held)) });
    sites.push(site);
    for (const path of held) site.route(path, gate.hold(html(simplePage(`Held page ${path}`, ['/']))));

    const queued = await startCrawl(t, account, { url: site.url('/'), sitemap: 0 });
    // Provably running: the start page is in (its report made) and both slots wait on held pages.
    await waitFor(async () => (await showCrawl(t, account, queued.id)).pages_crawled === 1 && site.inFlight() === 2, 'the crawl to hold two pages', 30_000);
    const running = await showCrawl(t, account, queued.id);
    expect(running.state).toBe('running');
    const askedBeforeCancel = [...site.requests];

    const deleted = await call(t, account, 'DELETE', `/api/v1/crawls/${queued.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(body(deleted)).toEqual({ id: queued.id, object: 'crawl', deleted: true, status: 200 });
    for (const path of ['', '/pages', '/issues']) expectNotFound(await call(t, account, 'GET', `/api/v1/crawls/${queued.id}${path}`));
    expectNotFound(await call(t, account, 'DELETE', `/api/v1/crawls/${queued.id}`));

    const [delivery] = await deliveriesFor(queued.id);
    expect(delivery.data).toMatchObject({ id: queued.id, url: site.url('/'), state: 'cancelled', pages_crawled: 1, score: null, result: null });
    expect(delivery.data.finished_at).toEqual(expect.any(String));

    // The two pages in flight are answered; nothing is asked for after them.
    gate.release();
    await waitFor(() => site.inFlight() === 0, 'the held answers to be sent');
    expect(site.requests).toEqual(askedBeforeCancel);
    // Absence takes a wait: longer than a work job's poll and a page's fetch, analysis and store.
    await sleep(1500);
    expect(site.requests).toEqual(askedBeforeCancel);
    expect(site.requests.filter((path) => path.startsWith('/held/'))).toHaveLength(2);

    // The start page's report stays; the held pages, answered after the cancel, made none.
    const reports = await projectReports(t, account, running.project);
    expect(reports.map((report) => report.url)).toEqual([site.url('/')]);
    expect(reports[0]).toMatchObject({ runs_count: 1, state: 'done' });
    // Still only the one delivery for the cancelled crawl.
    expect(await deliveriesFor(queued.id)).toHaveLength(1);
  });
});
