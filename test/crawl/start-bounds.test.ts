// A crawl's start requests (robots.txt, the origin probes, the sitemaps) are held to the host's bounds
// as its pages are (docs/crawls.md, "Bounds"): PAGEGRADE_CRAWL_CONCURRENCY at once across crawls, and
// robots.txt's Crawl-delay between every request after it. Timed by the site's own thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import type { Account } from '../support/api-fixtures.ts';
import { maxOverlap, simplePage, startCrawl, startThreadedSite, untilCrawlEnded, type ThreadedSite } from '../support/crawl-fixtures.ts';

describe.each(testDialects())('the start requests of a crawl [%s]', (dialect) => {
  let t: TestApp;
  let accounts: Account[];
  const sites: ThreadedSite[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 1 });
    accounts = [await t.createAccount('start-one'), await t.createAccount('start-two')];
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all(sites.map((site) => site.close()));
  });

  it('never asks the host two things at once, starts of two crawls included', async () => {
    // Every answer takes a while, so requests made at once would overlap at the site.
    const slow = { delayMs: 40 };
    const site = await startThreadedSite({
      '/robots.txt': { ...slow, headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/favicon.ico': { ...slow, status: 404 },
      '/llms.txt': { ...slow, status: 404 },
      '/': { ...slow, body: simplePage('Home', ['/a', '/b']) },
      '/a': { ...slow, body: simplePage('A', ['/']) },
      '/b': { ...slow, body: simplePage('B', ['/']) },
    });
    sites.push(site);
    const started = await Promise.all(accounts.map((account) => startCrawl(t, account, { url: site.url('/'), max_pages: 5 })));
    const ended = await Promise.all(started.map((crawl, index) => untilCrawlEnded(t, accounts[index], crawl.id)));
    expect(ended.map((crawl) => crawl.state)).toEqual(['done', 'done']);
    const log = await site.log();
    // Both crawls' robots.txt, probes and pages: each crawl counted its own.
    expect(log.filter((entry) => entry.path === '/robots.txt')).toHaveLength(2);
    expect(ended[0].requests + ended[1].requests).toBe(log.length);
    expect(maxOverlap(log)).toBe(1);
  });

  it('spaces every request after robots.txt by its Crawl-delay, start requests included', async () => {
    const site = await startThreadedSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 0.3\n' },
      '/': { body: simplePage('Home', ['/b']) },
      '/a': { body: simplePage('A', []) },
      '/b': { body: simplePage('B', []) },
    });
    sites.push(site);
    const started = await startCrawl(t, accounts[0], { url: site.url('/'), max_pages: 5 });
    const ended = await untilCrawlEnded(t, accounts[0], started.id);
    expect(ended.state).toBe('done');
    const log = await site.log();
    expect(log[0].path).toBe('/robots.txt');
    // robots.txt, the 404 probe, favicon, llms.txt, /sitemap.xml (not there), /, /b
    expect(log.length).toBeGreaterThanOrEqual(6);
    const gaps = log.slice(1).map((entry, index) => entry.startedAt - log[index].startedAt);
    const shown = `gaps: ${gaps.map(Math.round).join(', ')} ms`;
    // Each turn is timed when taken and its request leaves a little later (politeness.test.ts says
    // why): half the delay of tolerance per gap; over all of them, the delay less one latency.
    expect(Math.min(...gaps), shown).toBeGreaterThanOrEqual(150);
    expect(log.at(-1)!.startedAt - log[0].startedAt, shown).toBeGreaterThanOrEqual(gaps.length * 300 - 150);
    expect(ended.requests).toBe(log.length);
  });
});
