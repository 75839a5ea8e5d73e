// render=1 on crawls (docs/api.md "Site audits (crawls)", "Rendering"): every crawled HTML page is also loaded in
// Chromium, so each page's report says what JavaScript changed and javascript_dependency judges it;
// a crawl without render leaves rendered null. Without Chromium, render=1 is a 422 and no crawl is
// stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { body, call, expectInvalid, type Account, type Body } from '../support/api-fixtures.ts';
import { chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { html, linkingPage, startSite, type Site } from '../support/site-server.ts';
import { waitFor } from '../queue/engines.ts';
import { JS_BUILT_ROUTES, SERVER_RENDERED } from './pages.ts';

const RENDER_CRAWL_TEST_MS = 90_000;

describe('render=1 on a crawl without Chromium on the server', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { chromiumPath: '/nonexistent/chromium' });
    site = await startSite({ '/': html(SERVER_RENDERED) });
    account = await t.createAccount();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('is a 422 on render saying so, and stores no crawl', async () => {
    const refused = expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), render: 1 }), 'render');
    expect(refused).toEqual(['Rendering is not available on this server.']);
    expect(body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total).toBe(0);
    expect(expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), render: 2 }), 'render')).toEqual([
      'The render must be one of: 0, 1.',
    ]);
  });
});

whenChromiumMissing('render=1 on crawls');

describe.runIf(chromiumInstalled)('render=1 on crawls', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    site = await startSite({
      '/': html(linkingPage('Home of the mountain coffee roastery', ['/spa', '/ssr'])),
      '/ssr': html(SERVER_RENDERED),
      ...JS_BUILT_ROUTES,
    });
    account = await t.createAccount();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  async function crawlToTheEnd(render: 0 | 1): Promise<{ crawl: Body; reports: Map<string, Body> }> {
    const started = await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), render, sitemap: 0, max_pages: 10 });
    expect(started.statusCode, started.body).toBe(202);
    expect(body(started).data.render).toBe(render);
    const id = body(started).data.id;
    let crawl: Body;
    await waitFor(async () => {
      crawl = body(await call(t, account, 'GET', `/api/v1/crawls/${id}`)).data;
      return ['done', 'failed', 'cancelled'].includes(crawl.state);
    }, `crawl ${id} to end`, 60_000);
    const pages = body(await call(t, account, 'GET', `/api/v1/crawls/${id}/pages?per_page=100`)).data as Body[];
    const reports = new Map<string, Body>();
    for (const page of pages) {
      if (page.report_id === null) continue;
      reports.set(new URL(page.url).pathname, body(await call(t, account, 'GET', `/api/v1/reports/${page.report_id}`)).data);
    }
    return { crawl: crawl!, reports };
  }

  it('renders every crawled page: the script-built page is flagged, the server-rendered ones pass', { timeout: RENDER_CRAWL_TEST_MS }, async () => {
    const { crawl, reports } = await crawlToTheEnd(1);
    expect(crawl.state).toBe('done');
    expect([...reports.keys()].sort()).toEqual(['/', '/spa', '/ssr']);

    const spa = reports.get('/spa')!;
    expect(spa.rendered.title).toEqual({ raw: 'Loading…', rendered: 'Mountain coffee, roasted every morning' });
    expect(spa.rendered.h1).toEqual({ raw: [], rendered: ['Mountain coffee'] });
    expect(spa.rendered.json_ld_types).toEqual({ raw: [], rendered: ['Product'] });
    expect(spa.results.javascript_dependency.passed).toBe(false);

    for (const path of ['/', '/ssr']) {
      const report = reports.get(path)!;
      expect(report.rendered, path).not.toBeNull();
      expect(report.rendered.error, path).toBeUndefined();
      expect(report.rendered.title.raw, path).toBe(report.rendered.title.rendered);
      expect(report.results.javascript_dependency.passed, path).toBe(true);
    }
  });

  it('leaves rendering off when the crawl does not ask for it', { timeout: RENDER_CRAWL_TEST_MS }, async () => {
    const { crawl, reports } = await crawlToTheEnd(0);
    expect(crawl.state).toBe('done');
    expect(reports.size).toBe(3);
    for (const [path, report] of reports) {
      expect(report.rendered, path).toBeNull();
      expect(report.results.javascript_dependency.passed, path).toBeNull();
    }
  });
});
