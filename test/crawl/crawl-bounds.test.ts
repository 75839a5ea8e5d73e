// A crawl stays within its bounds whatever the site serves (docs/crawls.md, "Bounds"): requests to the
// host (counted here at the site itself) at most 2 × max_pages + 50, 10 redirects in a row, 1,000 links
// recorded a page, 20 × max_pages URLs stored; and it still ends done, saying a bound was met.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import type { Account } from '../support/api-fixtures.ts';
import { html, type Handler } from '../support/site-server.ts';
import { crawlPages, redirect, simplePage, startCrawl, startRecordingSite, untilCrawlEnded, type RecordingSite } from '../support/crawl-fixtures.ts';
import { openDatabase, type AppDatabase } from '../../src/db/open-database.ts';

const budget = (maxPages: number) => 2 * maxPages + 50;

/** A redirect from /loop/n to /loop/n+1, for ever. */
const endlessRedirects: Handler = (request, response) => {
  const n = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('n') ?? 0);
  response.writeHead(302, { location: `/loop?n=${n + 1}` });
  response.end();
};

describe.each(testDialects())('a crawl within its bounds [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  let database: AppDatabase;
  const sites: RecordingSite[] = [];

  async function site(routes: Record<string, Handler>): Promise<RecordingSite> {
    const started = await startRecordingSite(routes);
    sites.push(started);
    return started;
  }

  async function crawl(target: RecordingSite, fields: Record<string, string | number>) {
    const started = await startCrawl(t, account, { url: target.url('/'), ...fields });
    return untilCrawlEnded(t, account, started.id);
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 2 });
    account = await t.createAccount('bounds');
    database = await openDatabase(t.config.databaseUrl);
  });

  afterAll(async () => {
    await database?.close();
    await t?.close();
    await Promise.all(sites.map((s) => s.close()));
  });

  it('ends an endless run of redirects done, within its requests', async () => {
    const loop = await site({ '/': html(simplePage('Start', ['/loop?n=0'])), '/loop': endlessRedirects });
    const ended = await crawl(loop, { max_pages: 2, max_depth: 1 });
    expect(ended.state).toBe('done');
    expect(loop.log.length).toBeLessThanOrEqual(budget(2));
    expect(ended.requests).toBe(loop.log.length);
    expect(ended.limit_reached).toBe(true);
    // The start URL's link, then ten redirects in a row: the eleventh target is never asked for.
    expect(loop.countOf('/loop')).toBe(11);
    expect(ended.pages_found).toBe(ended.pages_unvisited + (await crawlPages(t, account, ended.id)).length);
  });

  it('stops at 2 × max_pages + 50 requests on a page of 3,000 broken links', async () => {
    const links = Array.from({ length: 3000 }, (_, index) => `/gone/${index}`);
    const broken = await site({ '/': html(simplePage('Many broken links', links)) });
    const ended = await crawl(broken, { max_pages: 5 });
    expect(ended.state).toBe('done');
    expect(broken.log.length).toBeLessThanOrEqual(budget(5));
    expect(ended.requests).toBe(broken.log.length);
    expect(ended.limit_reached).toBe(true);
  });

  it('leaves the 11th redirect target of a chain unvisited', async () => {
    const routes: Record<string, Handler> = { '/': html(simplePage('Chain', ['/r/1'])), '/end': html(simplePage('End', [])) };
    for (let step = 1; step <= 15; step++) routes[`/r/${step}`] = redirect(step === 15 ? '/end' : `/r/${step + 1}`);
    const chain = await site(routes);
    const ended = await crawl(chain, { max_pages: 10 });
    expect(ended.state).toBe('done');
    // /r/1 was linked; /r/2 ... /r/11 are its 10 redirects in a row; /r/12 would be the 11th.
    expect(chain.countOf('/r/11')).toBe(1);
    expect(chain.countOf('/r/12')).toBe(0);
    const row = await database.db.selectFrom('crawl_pages').select(['state', 'reason', 'redirects']).where('crawl_id', '=', ended.id).where('url', '=', chain.url('/r/12')).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'pending', reason: 'limit', redirects: 11 });
    expect(ended.limit_reached).toBe(true);
  });

  it('records 1,000 links of a page of 1,500 and counts the rest dropped', async () => {
    const links = Array.from({ length: 1500 }, (_, index) => `/l/${index}`);
    const many = await site({ '/': html(simplePage('Many links', links)) });
    const ended = await crawl(many, { max_pages: 100, max_depth: 0 });
    expect(ended.state).toBe('done');
    const start = await database.db.selectFrom('crawl_pages').select(['id', 'links_dropped']).where('crawl_id', '=', ended.id).where('url', '=', many.url('/')).executeTakeFirstOrThrow();
    expect(start.links_dropped).toBe(500);
    const { count } = await database.db.selectFrom('crawl_links').select((eb) => eb.fn.countAll<number>().as('count')).where('crawl_id', '=', ended.id).where('from_id', '=', start.id).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(1000);
    expect(ended.limit_reached).toBe(true);
  });

  it('stores at most 20 × max_pages URLs, counting the others as found and unvisited', async () => {
    const routes: Record<string, Handler> = {};
    for (let page = 0; page < 60; page++) {
      const links = [...Array.from({ length: 60 }, (_, index) => `/p/${index}`), ...Array.from({ length: 1940 }, (_, index) => `/x/${page}/${index}`)];
      routes[page === 0 ? '/' : `/p/${page}`] = html(simplePage(`Page ${page}`, links));
    }
    const wide = await site(routes);
    const ended = await crawl(wide, { max_pages: 3 });
    expect(ended.state).toBe('done');
    const { count } = await database.db.selectFrom('crawl_pages').select((eb) => eb.fn.countAll<number>().as('count')).where('crawl_id', '=', ended.id).executeTakeFirstOrThrow();
    expect(Number(count)).toBeLessThanOrEqual(20 * 3);
    const visited = await crawlPages(t, account, ended.id);
    expect(ended.pages_found).toBe(visited.length + ended.pages_unvisited);
    expect(ended.pages_unvisited).toBeGreaterThan(1000);
    expect(ended.limit_reached).toBe(true);
    expect(wide.log.length).toBeLessThanOrEqual(budget(3));
  });

  it('follows the links of pages known only from the sitemap', async () => {
    const sitemap = (origin: string) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/orphan</loc></url></urlset>`;
    const orphaned = await site({
      '/': html(simplePage('Home', [])),
      '/orphan': html(simplePage('Orphan', ['/broken-from-orphan'])),
    });
    orphaned.route('/sitemap.xml', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(sitemap(orphaned.origin));
    });
    const ended = await crawl(orphaned, { max_pages: 10, max_depth: 0 });
    expect(ended.state).toBe('done');
    expect(orphaned.countOf('/orphan')).toBe(1);
    expect(orphaned.countOf('/broken-from-orphan')).toBe(1);
    const pages = await crawlPages(t, account, ended.id);
    expect(pages.find((page) => page.url === orphaned.url('/broken-from-orphan'))).toMatchObject({ status_code: 404, depth: null });
  });
});
