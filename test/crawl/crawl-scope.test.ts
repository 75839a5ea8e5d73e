// A crawl's scope through the API (docs/crawls.md, "Scope and request headers"): malformed patterns and
// names, and a start URL outside the scope, are 422s storing nothing; the crawl object shows the three
// lists as given; a URL outside include/exclude (linked, a redirect target, in the sitemap) is never
// requested (counted at the site), is found and listed unvisited with reason excluded, and does not set
// limit_reached; strip_params makes /c?utm_source=x and /c one URL, requested once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectInvalid, type Account, type Body } from '../support/api-fixtures.ts';
import { html, text } from '../support/site-server.ts';
import { crawlPages, everyRow, redirect, simplePage, startCrawl, startRecordingSite, untilCrawlEnded, type RecordingSite } from '../support/crawl-fixtures.ts';

describe.each(testDialects())('a crawl\'s scope [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  const sites: RecordingSite[] = [];

  async function site(): Promise<RecordingSite> {
    const started = await startRecordingSite();
    sites.push(started);
    return started;
  }

  async function unvisited(id: number): Promise<Body[]> {
    return everyRow(async (path) => body(await call(t, account, 'GET', path)), `/api/v1/crawls/${id}/pages?state=unvisited`);
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 2 });
    account = await t.createAccount('scope');
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all(sites.map((s) => s.close()));
  });

  it('refuses malformed patterns and names, and a start URL it would not fetch, storing nothing', async () => {
    const target = await site();
    const url = target.url('/shop/');
    const cases: [Record<string, string>, string, string][] = [
      [{ include: Array.from({ length: 21 }, (_, index) => `/p${index}`).join(',') }, 'include', 'The include may have at most 20 patterns; it has 21.'],
      [{ include: 'shop/**' }, 'include', 'The include pattern "shop/**" must start with / or * (it matches the URL\'s path and query).'],
      [{ exclude: '/a b' }, 'exclude', 'The exclude pattern "/a b" must not contain white space.'],
      [{ exclude: `/${'x'.repeat(500)}` }, 'exclude', `Each exclude pattern must be at most 500 characters; "/${'x'.repeat(56)}..." has 501.`],
      [{ strip_params: 'utm_*,a=b' }, 'strip_params', 'The strip_params name "a=b" must be letters, digits and . _ ~ - [ ] only, optionally ending in * (a prefix).'],
      [{ strip_params: Array.from({ length: 51 }, (_, index) => `p${index}`).join(' ') }, 'strip_params', 'The strip_params may have at most 50 names; it has 51.'],
      [{ include: '/blog/**' }, 'include', 'The start URL ("/shop/") matches none of the include patterns: the crawl must fetch it.'],
      [{ exclude: '/shop/*' }, 'exclude', 'The start URL ("/shop/") matches the exclude pattern "/shop/*": the crawl must fetch it.'],
    ];
    for (const [fields, field, message] of cases) {
      expect(expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url, ...fields }), field)).toEqual([message]);
    }
    // The start URL is matched as the crawl takes it: without its stripped parameters.
    const stripped = await call(t, account, 'POST', '/api/v1/crawls', { url: target.url('/shop/?utm_source=x'), include: '/shop/', strip_params: 'utm_*' });
    expect(stripped.statusCode, stripped.body).toBe(202);
    const crawl = body(stripped).data;
    expect(crawl.url).toBe(target.url('/shop/'));
    await untilCrawlEnded(t, account, crawl.id);
    expect(body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total).toBe(1);
  });

  it('shows include, exclude and strip_params in the order given, from a form or JSON', async () => {
    const target = await site();
    const form = await call(t, account, 'POST', '/api/v1/crawls', { url: target.url('/'), include: '/,/shop/**\n/c*', exclude: '**?sort=*', strip_params: 'utm_* gclid', external: 0 });
    expect(form.statusCode, form.body).toBe(202);
    expect(body(form).data).toMatchObject({ include: ['/', '/shop/**', '/c*'], exclude: ['**?sort=*'], strip_params: ['utm_*', 'gclid'] });
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/crawls',
      headers: { ...account.auth, 'content-type': 'application/json' },
      payload: { url: target.url('/'), include: ['/', '/b/*'], exclude: '/b/x', strip_params: ['z', 'a'], external: 0 },
    });
    expect(json.statusCode, json.body).toBe(202);
    const crawl = body(json).data;
    expect(crawl).toMatchObject({ include: ['/', '/b/*'], exclude: ['/b/x'], strip_params: ['z', 'a'] });
    expect(body(await call(t, account, 'GET', `/api/v1/crawls/${crawl.id}`)).data).toMatchObject({ include: ['/', '/b/*'], exclude: ['/b/x'], strip_params: ['z', 'a'] });
    const plain = await call(t, account, 'POST', '/api/v1/crawls', { url: target.url('/'), external: 0 });
    expect(body(plain).data).toMatchObject({ include: [], exclude: [], strip_params: [], header_names: [], user_agent: 'default', external: 0 });
    for (const id of [body(form).data.id, crawl.id, body(plain).data.id]) await untilCrawlEnded(t, account, id);
  });

  it('never requests a URL outside include/exclude, lists it unvisited as excluded, and strips parameters', async () => {
    const target = await site();
    const queries: string[] = [];
    target.route('/', html(simplePage('Home', ['/shop/a', '/shop/admin/x', '/blog/1', '/c?utm_source=x', '/c', '/c?keep=1&utm_medium=m', '/moved', '/to-admin'])));
    target.route('/shop/a', html(simplePage('Shop A', ['/blog/2', '/c?utm_campaign=z'])));
    target.route('/c', (request, response) => {
      queries.push(request.url ?? '');
      html(simplePage('C', []))(request, response);
    });
    target.route('/moved', redirect('/blog/moved'));
    target.route('/to-admin', redirect('/shop/admin/y?utm_source=r'));
    target.route('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${target.url('/sitemap.xml')}\n`));
    target.route('/sitemap.xml', text(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${target.url('/shop/listed?utm_source=s')}</loc></url><url><loc>${target.url('/blog/listed')}</loc></url></urlset>`,
      'application/xml',
    ));
    target.route('/shop/listed', html(simplePage('Listed', [])));

    const started = await startCrawl(t, account, {
      url: target.url('/'),
      max_pages: 30,
      include: '/\n/shop/**\n/c*\n/moved\n/to-admin',
      exclude: '/shop/admin/**',
      strip_params: 'utm_*',
      external: 0,
    });
    const ended = await untilCrawlEnded(t, account, started.id);
    expect(ended.state, ended.error).toBe('done');

    for (const path of ['/blog/1', '/blog/2', '/blog/moved', '/blog/listed', '/shop/admin/x', '/shop/admin/y']) expect(target.countOf(path), path).toBe(0);
    expect(target.countOf('/shop/a')).toBe(1);
    expect(target.countOf('/shop/listed')).toBe(1);
    // /c?utm_source=x, /c and /c?utm_campaign=z are one URL; /c?keep=1&utm_medium=m is /c?keep=1.
    expect(queries.sort()).toEqual(['/c', '/c?keep=1']);

    const left = await unvisited(ended.id);
    const reasons = Object.fromEntries(left.map((entry: Body) => [entry.url.slice(target.origin.length), entry.reason]));
    expect(reasons).toEqual({
      '/blog/1': 'excluded',
      '/blog/2': 'excluded',
      '/blog/moved': 'excluded',
      '/blog/listed': 'excluded',
      '/shop/admin/x': 'excluded',
      '/shop/admin/y': 'excluded',
    });
    expect(ended.limit_reached).toBe(false);
    expect(ended.pages_unvisited).toBe(6);
    const visited = await crawlPages(t, account, ended.id);
    expect(ended.pages_found).toBe(visited.length + ended.pages_unvisited);
    expect(visited.map((entry: Body) => entry.url.slice(target.origin.length)).sort()).toEqual(['/', '/c', '/c?keep=1', '/moved', '/shop/a', '/shop/listed', '/to-admin']);
    expect(visited.find((entry: Body) => entry.url.endsWith('/to-admin'))?.redirect_target).toBe(target.url('/shop/admin/y'));
  });
});
