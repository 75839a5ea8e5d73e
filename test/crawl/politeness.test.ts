// A crawl is polite to the site it crawls (docs/api.md "Site audits (crawls)"): it obeys robots.txt for its own user
// agent (Disallow and Crawl-delay, timed here by the site's own clock), makes at most
// PAGEGRADE_CRAWL_CONCURRENCY requests to the host at once, and backs off on 429 and 503 for as long
// as Retry-After says before asking the host again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import type { Account } from '../support/api-fixtures.ts';
import { html, text, type Handler } from '../support/site-server.ts';
import {
  crawlPages,
  delayed,
  isAuxPath,
  maxOverlap,
  simplePage,
  startCrawl,
  startRecordingSite,
  startThreadedSite,
  untilCrawlEnded,
  type RecordedRequest,
  type RecordingSite,
  type ScriptedAnswer,
  type ThreadedSite,
} from '../support/crawl-fixtures.ts';

/** The site's requests for pages of the crawl: robots.txt, sitemaps and an analysis' origin look left out. */
const pageRequests = (site: RecordingSite): RecordedRequest[] => site.log.filter((entry) => !isAuxPath(entry.path));

/** Gaps between the starts of consecutive requests, in ms. */
function gaps(entries: readonly RecordedRequest[]): number[] {
  return entries.slice(1).map((entry, index) => entry.startedAt - entries[index].startedAt);
}

describe.each(testDialects())('a polite crawl [%s]', (dialect) => {
  let t: TestApp;
  let slow: TestApp;
  let account: Account;
  let slowAccount: Account;
  const sites: (RecordingSite | ThreadedSite)[] = [];

  async function site(routes: Record<string, Handler>): Promise<RecordingSite> {
    const started = await startRecordingSite(routes);
    sites.push(started);
    return started;
  }

  /** For timing: a site on a thread of its own, whose clock the crawler's work cannot hold up. */
  async function threadedSite(routes: Parameters<typeof startThreadedSite>[0]): Promise<ThreadedSite> {
    const started = await startThreadedSite(routes);
    sites.push(started);
    return started;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 2 });
    account = await t.createAccount('polite');
    // One request at a time: what follows a 429 is then surely a request made after the wait.
    slow = await startTestApp(dialect, { workers: 2, crawlConcurrency: 1 });
    slowAccount = await slow.createAccount('polite-one');
  });

  afterAll(async () => {
    await t?.close();
    await slow?.close();
    for (const started of sites) await started.close();
  });

  it('obeys robots.txt for its own user agent: Disallow never requested, Crawl-delay between requests', async () => {
    const pages = ['/p1', '/p2', '/p3', '/p4', '/p5', '/p6'];
    const page = (title: string, links: string[]): ScriptedAnswer => ({ body: simplePage(title, links) });
    const polite = await threadedSite({
      // Every other robot is kept out entirely; pagegrade's own group lets it in, slowly.
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /\n\nUser-agent: pagegrade\nCrawl-delay: 0.3\nDisallow: /private/\n' },
      '/': page('Home of the polite site', [...pages, '/private/a', '/private/b']),
      '/p1': page('Page one of the polite site', ['/p7', '/private/c']),
      '/p7': page('Page seven of the polite site', ['/']),
      '/private/a': page('Private page a', []),
      '/private/b': page('Private page b', []),
      '/private/c': page('Private page c', []),
      ...Object.fromEntries(pages.slice(1).map((path) => [path, page(`Page ${path} of the polite site`, ['/'])])),
    });

    const queued = await startCrawl(t, account, { url: polite.url('/'), sitemap: 0 });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    expect({ found: crawl.pages_found, crawled: crawl.pages_crawled, failed: crawl.pages_failed }).toEqual({ found: 8, crawled: 8, failed: 0 });
    const log = await polite.log();
    expect(log.filter((entry) => entry.path.startsWith('/private/'))).toEqual([]);
    const listed = (await crawlPages(t, account, queued.id)).map((row) => new URL(row.url).pathname).sort();
    expect(listed).toEqual(['/', '/p1', '/p2', '/p3', '/p4', '/p5', '/p6', '/p7']);

    const requested = log.filter((entry) => !isAuxPath(entry.path));
    expect(requested.map((entry) => entry.path).sort()).toEqual(listed);
    // The delay is kept by the claims' clock: each claim's time is taken before its transaction waits
    // for the database, and its request leaves after, so the site's clock (its own thread) sees each
    // gap less the difference of two such latencies: tens of milliseconds, more on a loaded machine
    // (the test runner shares two cores with the rest of the suite). Half the delay of tolerance per
    // gap; over the seven gaps together, the delay less one latency.
    const between = gaps(requested);
    const shown = `gaps between page requests: ${between.map(Math.round).join(', ')} ms`;
    expect(Math.min(...between), shown).toBeGreaterThanOrEqual(150);
    expect(requested.at(-1)!.startedAt - requested[0].startedAt, shown).toBeGreaterThanOrEqual(7 * 300 - 150);
  });

  it('a start page robots.txt disallows: the crawl fails saying so, and nothing but robots.txt is asked for', async () => {
    const closed = await site({
      '/robots.txt': text('User-agent: *\nDisallow: /\n'),
      '/': html(simplePage('Home of a closed site', ['/a'])),
    });
    const queued = await startCrawl(t, account, { url: closed.url('/') });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl).toMatchObject({ state: 'failed', pages_crawled: 0, score: null });
    expect(crawl.error).toMatch(/robots\.txt/);
    expect(closed.requests).toEqual(['/robots.txt']);
  });

  it('at most PAGEGRADE_CRAWL_CONCURRENCY (2) page requests at once, and two at once indeed', async () => {
    const pages = Array.from({ length: 16 }, (_, index) => `/c${index}`);
    const busy = await site({ '/': delayed(50, html(simplePage('Home of the busy site', pages))) });
    for (const path of pages) busy.route(path, delayed(50, html(simplePage(`Busy page ${path}`, ['/']))));

    const queued = await startCrawl(t, account, { url: busy.url('/'), sitemap: 0 });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl.state).toBe('done');
    expect(crawl.pages_crawled).toBe(17);
    const requested = pageRequests(busy);
    expect(requested).toHaveLength(17);
    expect(maxOverlap(requested)).toBe(2);
  });

  // The origin's files the page checks need are read once when the crawl starts, one at a time, so the
  // host never sees more than PAGEGRADE_CRAWL_CONCURRENCY requests at once.
  it('at most PAGEGRADE_CRAWL_CONCURRENCY (2) requests of any kind at once, the first analysis\' look at the origin included', async () => {
    const pages = Array.from({ length: 8 }, (_, index) => `/m${index}`);
    const busy = await site({ '/': html(simplePage('Home of the mapped site', [])) });
    busy.route('/sitemap.xml', text(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages.map((path) => `<url><loc>${busy.url(path)}</loc></url>`).join('')}</urlset>`,
      'application/xml',
    ));
    for (const path of pages) busy.route(path, delayed(100, html(simplePage(`Mapped page ${path}`, ['/']))));
    // A host that answers its small files no faster than its pages.
    busy.route('/robots.txt', delayed(100, text('User-agent: *\nAllow: /\n')));
    busy.route('/favicon.ico', delayed(100, text('icon', 'image/x-icon')));
    busy.route('/llms.txt', delayed(100, text('# Mapped site\n')));

    const queued = await startCrawl(t, account, { url: busy.url('/') });
    const crawl = await untilCrawlEnded(t, account, queued.id);
    expect(crawl.state).toBe('done');
    expect(crawl.pages_crawled).toBe(9);
    expect(maxOverlap(pageRequests(busy))).toBeLessThanOrEqual(2);
    const atOnce = maxOverlap(busy.log);
    expect(atOnce, busy.log.map((entry) => `${entry.path} ${entry.startedAt}-${entry.endedAt}`).join('\n')).toBeLessThanOrEqual(2);
  });

  // The limit is per host (docs/crawls.md), across every crawl of it.
  it('two crawls of one host together stay within PAGEGRADE_CRAWL_CONCURRENCY (2) requests at once', async () => {
    const pages = Array.from({ length: 8 }, (_, index) => `/d${index}`);
    const shared = await site({ '/': delayed(100, html(simplePage('Home of the doubly crawled site', pages))) });
    for (const path of pages) shared.route(path, delayed(100, html(simplePage(`Doubly crawled page ${path}`, ['/']))));
    const other = await t.createAccount('polite-other');
    const [first, second] = await Promise.all([
      startCrawl(t, account, { url: shared.url('/'), sitemap: 0 }),
      startCrawl(t, other, { url: shared.url('/'), sitemap: 0 }),
    ]);
    expect((await untilCrawlEnded(t, account, first.id)).state).toBe('done');
    expect((await untilCrawlEnded(t, other, second.id)).state).toBe('done');
    const requested = pageRequests(shared);
    expect(requested).toHaveLength(18);
    expect(maxOverlap(requested)).toBeLessThanOrEqual(2);
  });

  it('429 and 503 with Retry-After: waits before asking the host again, then crawls the page; a page always 429 ends recorded as 429', async () => {
    const wait = (status: number, body: string): ScriptedAnswer => ({ status, headers: { 'retry-after': '1', 'content-type': 'text/plain' }, body });
    const limited = await threadedSite({
      '/': [wait(429, 'slow down'), { body: simplePage('Home of the rate-limited site', ['/a', '/always-429', '/b']) }],
      '/a': { body: simplePage('Page a of the rate-limited site', ['/']) },
      '/b': [wait(503, 'busy'), { body: simplePage('Page b of the rate-limited site', ['/']) }],
      '/always-429': wait(429, 'still too many'),
    });
    const queued = await startCrawl(slow, slowAccount, { url: limited.url('/'), sitemap: 0 });
    const crawl = await untilCrawlEnded(slow, slowAccount, queued.id);
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    expect(crawl.pages_crawled).toBe(3);

    const requested = (await limited.log()).filter((entry) => !isAuxPath(entry.path));
    // The start page and /b twice (429 or 503, then 200); the page always 429 for each of its three attempts.
    expect(requested.map((entry) => entry.path).sort()).toEqual(['/', '/', '/a', '/always-429', '/always-429', '/always-429', '/b', '/b']);
    // After each 429 or 503, the host is left alone for the second Retry-After asks.
    const waits = requested.filter((entry) => entry.status === 429 || entry.status === 503);
    expect(waits).toHaveLength(5);
    for (const answered of waits) {
      const after = requested.find((entry) => entry.startedAt > answered.startedAt);
      if (after === undefined) continue;
      expect(after.startedAt - answered.endedAt!, `${answered.path} (${answered.status}) then ${after.path}`).toBeGreaterThanOrEqual(950);
    }
    const rows = Object.fromEntries((await crawlPages(slow, slowAccount, queued.id)).map((page) => [new URL(page.url).pathname, page]));
    expect(rows['/']).toMatchObject({ status_code: 200, report_id: expect.any(Number) });
    expect(rows['/b']).toMatchObject({ status_code: 200, report_id: expect.any(Number) });
    expect(rows['/always-429']).toMatchObject({ status_code: 429, report_id: null });
  });
});
