// Site audits through the API (docs/api.md "Site audits (crawls)"): a small loopback site crawled by the app's own
// workers, with its pages, site issues, reports, robots.txt, sitemap, cancel and access rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectInvalid, NOT_FOUND, type Account, type Body } from '../support/api-fixtures.ts';
import { html, linkingPage, startSite, text, type Site } from '../support/site-server.ts';
import { waitFor } from '../queue/engines.ts';

describe.each(testDialects())('crawls through the API [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let account: Account;

  async function untilEnded(id: number): Promise<Body> {
    let crawl: Body;
    await waitFor(async () => {
      crawl = body(await call(t, account, 'GET', `/api/v1/crawls/${id}`)).data;
      return ['done', 'failed', 'cancelled'].includes(crawl.state);
    }, `crawl ${id} to end`, 30_000);
    return crawl!;
  }

  beforeAll(async () => {
    site = await startSite({
      '/': html(linkingPage('Home of the mountain coffee roastery', ['/a', '/b', '/missing', '/old', '/private/x', '/file.pdf', 'https://other.test/'])),
      '/a': html(linkingPage('Page A about mountain coffee beans', ['/', '/b#section'])),
      '/b': html(linkingPage('Page A about mountain coffee beans', ['/a'])),
      '/old': (_request, response) => {
        response.writeHead(301, { location: '/a' });
        response.end();
      },
      '/private/x': html(linkingPage('Never to be fetched', [])),
      '/file.pdf': text('%PDF-1.4', 'application/pdf'),
      '/listed-only': html(linkingPage('Listed only in the sitemap page', [])),
      '/robots.txt': text('User-agent: *\nDisallow: /private/\nSitemap: /sitemap.xml\n'),
      '/sitemap.xml': text(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>URL/</loc></url><url><loc>URL/listed-only</loc></url></urlset>',
        'application/xml',
      ),
    });
    // The sitemap names the site's own (port-bearing) URLs.
    site.route('/sitemap.xml', text(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url('/')}</loc></url><url><loc>${site.url('/listed-only')}</loc></url></urlset>`,
      'application/xml',
    ));
    site.route('/robots.txt', text(`User-agent: *\nDisallow: /private/\nSitemap: ${site.url('/sitemap.xml')}\n`));
    t = await startTestApp(dialect, { workers: 4 });
    account = await t.createAccount('crawler');
  });

  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  it('crawls the host, obeys robots.txt, takes the sitemap, and finds the site issues', async () => {
    const started = await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), max_pages: 20 });
    expect(started.statusCode, started.body).toBe(202);
    const queued = body(started).data;
    expect(started.headers.location).toBe(`/api/v1/crawls/${queued.id}`);
    expect(queued).toMatchObject({ url: site.url('/'), project: new URL(site.origin).host, state: 'queued', max_pages: 20, max_depth: 10, score: null });

    const crawl = await untilEnded(queued.id);
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    // /, /a, /b, /listed-only are HTML; /missing and /about (every good page links it) 404, /old a
    // redirect, /file.pdf not HTML; /private/x disallowed, other.test another host.
    expect(crawl.pages_crawled).toBe(4);
    expect(crawl.pages_found).toBe(8);
    expect(crawl.pages_failed).toBe(0);
    // Every request the site saw was the crawl's (robots.txt, probes and sitemaps included); no bound met.
    expect(crawl.requests).toBe(site.requests.length);
    expect(crawl).toMatchObject({ limit_reached: false, pages_unvisited: 0 });
    expect(crawl.score).toEqual(expect.any(Number));
    expect(site.requests).not.toContain('/private/x');
    expect(site.requests.filter((path) => path === '/a')).toHaveLength(1);

    const pages = body(await call(t, account, 'GET', `/api/v1/crawls/${queued.id}/pages?per_page=10`));
    const byUrl = Object.fromEntries(pages.data.map((row: Body) => [new URL(row.url).pathname, row]));
    expect(Object.keys(byUrl).sort()).toEqual(['/', '/a', '/about', '/b', '/file.pdf', '/listed-only', '/missing', '/old']);
    expect(byUrl['/']).toMatchObject({ status_code: 200, depth: 0, title: 'Home of the mountain coffee roastery', inlinks: 1 });
    expect(byUrl['/missing']).toMatchObject({ status_code: 404, report_id: null, depth: 1 });
    expect(byUrl['/old']).toMatchObject({ status_code: 301, redirect_target: site.url('/a') });
    expect(byUrl['/file.pdf']).toMatchObject({ status_code: 200, content_type: 'application/pdf', report_id: null });
    expect(byUrl['/listed-only']).toMatchObject({ depth: null, status_code: 200 });
    expect(byUrl['/a'].report_id).toEqual(expect.any(Number));

    const report = body(await call(t, account, 'GET', `/api/v1/reports/${byUrl['/a'].report_id}`)).data;
    expect(report).toMatchObject({ url: site.url('/a'), project: crawl.project, runs_count: 1 });
    const runs = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs`)).data;
    expect(runs[0].trigger).toBe('crawl');

    const issues = body(await call(t, account, 'GET', `/api/v1/crawls/${queued.id}/issues`)).data;
    const byId = Object.fromEntries(issues.map((issue: Body) => [issue.id, issue]));
    expect(byId.broken_links).toMatchObject({ importance: 'high', count: 2 });
    expect(JSON.stringify(byId.broken_links.items)).toContain('/missing');
    expect(byId.redirected_links.count).toBe(1);
    expect(byId.duplicate_titles.count).toBe(1);
    expect(byId.orphan_pages.count).toBe(1);
    expect(crawl.issues.high).toBe(byId.broken_links.count + (byId.canonical_targets?.count ?? 0));
    // A high-importance finding keeps the site below good.
    expect(crawl.result).not.toBe('good');

    const pagesCsv = await call(t, account, 'GET', `/api/v1/crawls/${queued.id}/pages?format=csv&status=4xx`);
    expect(pagesCsv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(pagesCsv.body.split('\r\n')).toEqual([
      'url,status_code,depth,title,content_type,report_id,score,result,inlinks,redirect_target,error,external,links_dropped,reason',
      `${site.url('/about')},404,1,,text/html; charset=utf-8,,,,4,,,false,0,`,
      `${site.url('/missing')},404,1,,text/html; charset=utf-8,,,,1,,,false,0,`,
      '',
    ]);
    const issuesCsv = (await call(t, account, 'GET', `/api/v1/crawls/${queued.id}/issues?format=csv`)).body.split('\r\n');
    expect(issuesCsv[0]).toBe('id,importance,count,items');
    expect(issuesCsv[1]).toMatch(/^broken_links,high,2,"\[/);
  });

  it('refuses bad input with a 422 naming the field, storing nothing', async () => {
    const crawlsNow = async () => body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total;
    const before = await crawlsNow();
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: 'ftp://example.com/' }), 'url');
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), max_pages: 0 }), 'max_pages');
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), max_depth: 51 }), 'max_depth');
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), sitemap: 2 }), 'sitemap');
    expect(await crawlsNow()).toBe(before);
  });

  it('keeps crawls to their account and deletes them', async () => {
    const other = await t.createAccount('other');
    const started = body(await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), max_pages: 2, sitemap: 0 })).data;
    for (const path of ['', '/pages', '/issues']) {
      const response = await call(t, other, 'GET', `/api/v1/crawls/${started.id}${path}`);
      expect(response.statusCode).toBe(404);
      expect(body(response)).toEqual(NOT_FOUND);
    }
    expect((await call(t, other, 'DELETE', `/api/v1/crawls/${started.id}`)).statusCode).toBe(404);
    const ended = await untilEnded(started.id);
    expect(ended.pages_crawled).toBe(2);
    const deleted = await call(t, account, 'DELETE', `/api/v1/crawls/${started.id}`);
    expect(body(deleted)).toEqual({ id: started.id, object: 'crawl', deleted: true, status: 200 });
    expect((await call(t, account, 'GET', `/api/v1/crawls/${started.id}`)).statusCode).toBe(404);
  });
});
