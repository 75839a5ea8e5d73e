// A crawl checks every link of its pages to another host once (docs/crawls.md, "External links"):
// HEAD, then GET when HEAD is refused, up to 5 redirects, at most 2 requests at once per external host,
// the crawl's User-Agent and never its headers; broken_external_links names what did not answer well,
// and the pages list shows the checks with scope=external. With external=0 nothing goes to other hosts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects, forEachDialect } from '../support/databases.ts';
import { body, call, codePointCompare, type Account, type Body } from '../support/api-fixtures.ts';
import { csvObjects } from '../support/csv.ts';
import { html } from '../support/site-server.ts';
import { crawlIssues, everyRow, simplePage, startCrawl, startRecordingSite, untilCrawlEnded, type RecordingSite } from '../support/crawl-fixtures.ts';
import { crawlAgent } from '../../src/crawl/user-agents.ts';
import { siteOf, at } from '../../src/crawl/site-checks/site-fixture.ts';
import { claimExternals, recordExternal, storeExternalLinks } from '../../src/repositories/crawl-external.repository.ts';
import { readCrawlPages } from '../../src/lists/crawls.ts';

interface ExternalRequest {
  method: string;
  path: string;
  userAgent: string;
  cookie: string | undefined;
}

/** The "other site": answers by path, recording each request and the most it answered at once. */
async function startExternalSite() {
  const requests: ExternalRequest[] = [];
  let open = 0;
  let mostAtOnce = 0;
  const answer = (response: ServerResponse, status: number, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    response.end('<p>elsewhere</p>');
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    requests.push({ method: request.method ?? '', path, userAgent: String(request.headers['user-agent'] ?? ''), cookie: request.headers.cookie });
    open++;
    mostAtOnce = Math.max(mostAtOnce, open);
    response.once('close', () => open--);
    const redirect = /^\/six\/(\d)$/.exec(path);
    if (path === '/ok') return answer(response, 200);
    if (path === '/gone') return answer(response, 404);
    if (path === '/broken') return answer(response, 500);
    if (path === '/no-head') return request.method === 'HEAD' ? answer(response, 405) : answer(response, 200);
    if (redirect) return answer(response, 301, { location: `/six/${Number(redirect[1]) + 1}` });
    // Slow enough that checks of several of them overlap, were they allowed to.
    if (path.startsWith('/slow/')) return void setTimeout(() => answer(response, 200), 80);
    answer(response, 404);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path: string) => `${origin}${path}`,
    requests,
    mostAtOnce: () => mostAtOnce,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  const { port } = spare.address() as AddressInfo;
  await new Promise<void>((resolve) => spare.close(() => resolve()));
  return port;
}

const SLOW = Array.from({ length: 6 }, (_, index) => `/slow/${index}`);

describe.each(testDialects())('external links of a crawl [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  let site: RecordingSite;
  let other: Awaited<ReturnType<typeof startExternalSite>>;
  let unreachable: string;
  let crawl: Body;

  const get = async (path: string) => {
    const response = await call(t, account, 'GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return body(response);
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 4, crawlConcurrency: 2 });
    account = await t.createAccount('external');
    other = await startExternalSite();
    unreachable = `http://127.0.0.1:${await closedPort()}/nothing`;
    const externals = ['/ok', '/gone', '/broken', '/no-head', '/six/1', ...SLOW].map(other.url);
    site = await startRecordingSite({
      // A link with credentials is no page address: never checked.
      '/': html(simplePage('Home', ['/a', ...externals, unreachable, other.url('/creds').replace('//', '//user:secret@')])),
      '/a': html(simplePage('A', ['/', other.url('/gone'), other.url('/ok')])),
    });
    const started = await startCrawl(t, account, { url: site.url('/'), max_pages: 10, user_agent: 'desktop', headers: 'Cookie: session=for-the-site-only' });
    crawl = await untilCrawlEnded(t, account, started.id);
  });

  afterAll(async () => {
    await t?.close();
    await site?.close();
    await other?.close();
  });

  it('checks each external URL once, with HEAD, and GET only where HEAD is refused', () => {
    expect(crawl.state).toBe('done');
    expect(crawl.external).toBe(1);
    expect(crawl.external_checked).toBe(6 + SLOW.length);
    const methodsOf = (path: string) => other.requests.filter((request) => request.path === path).map((request) => request.method);
    for (const path of ['/ok', '/gone', '/broken', ...SLOW]) expect(methodsOf(path), path).toEqual(['HEAD']);
    expect(methodsOf('/no-head')).toEqual(['HEAD', 'GET']);
    // Five redirects followed; the sixth target is never asked for.
    for (let step = 1; step <= 6; step++) expect(methodsOf(`/six/${step}`), `/six/${step}`).toEqual(['HEAD']);
    expect(methodsOf('/six/7')).toEqual([]);
    expect(methodsOf('/creds')).toEqual([]);
    // No robots.txt of the other host: a link check is not crawling.
    expect(methodsOf('/robots.txt')).toEqual([]);
    // The external checks are not requests to the crawled host.
    expect(crawl.requests).toBe(site.log.length);
  });

  it('sends the crawl\'s User-Agent, never its headers, and at most 2 requests at once', () => {
    const userAgent = crawlAgent('desktop', t.config.userAgent).userAgent;
    expect(new Set(other.requests.map((request) => request.userAgent))).toEqual(new Set([userAgent]));
    expect(other.requests.every((request) => request.cookie === undefined)).toBe(true);
    expect(other.mostAtOnce()).toBe(2);
  });

  it('reports the broken ones in broken_external_links', async () => {
    const issue = (await crawlIssues(t, account, crawl.id)).broken_external_links;
    expect(issue).toMatchObject({ importance: 'medium', count: 4 });
    const one = { linked_from: [site.url('/')], linked_from_count: 1 };
    const others = [
      { url: other.url('/broken'), status_code: 500, error: null, ...one },
      { url: other.url('/six/1'), status_code: 301, error: 'too many redirects', ...one },
      { url: unreachable, status_code: null, error: expect.stringMatching(/refused the connection/), ...one },
    ].sort((a, b) => codePointCompare(a.url, b.url));
    expect(issue.items).toEqual([{ url: other.url('/gone'), status_code: 404, error: null, linked_from: [site.url('/'), site.url('/a')], linked_from_count: 2 }, ...others]);
  });

  it('lists the checks with scope=external', async () => {
    const listed = await everyRow(get, `/api/v1/crawls/${crawl.id}/pages?scope=external`);
    expect(listed.map((entry) => entry.url)).toEqual([...listed.map((entry) => entry.url)].sort(codePointCompare));
    expect(listed).toHaveLength(crawl.external_checked);
    const byUrl = new Map(listed.map((entry) => [entry.url, entry]));
    const crawledFields = { external: true, depth: null, title: null, report_id: null, score: null, result: null, links_dropped: 0, reason: null };
    expect(byUrl.get(other.url('/gone'))).toEqual({ url: other.url('/gone'), status_code: 404, redirect_target: null, content_type: 'text/html; charset=utf-8', error: null, inlinks: 2, ...crawledFields });
    expect(byUrl.get(other.url('/no-head'))).toMatchObject({ status_code: 200, inlinks: 1 });
    expect(byUrl.get(other.url('/six/1'))).toMatchObject({ status_code: 301, redirect_target: other.url('/six/6'), error: 'too many redirects' });
    expect(byUrl.get(unreachable)).toMatchObject({ status_code: null, content_type: null, error: expect.stringMatching(/refused/) });

    const failed = await get(`/api/v1/crawls/${crawl.id}/pages?scope=external&status=failed`);
    expect(failed.data.map((entry: Body) => entry.url)).toEqual([unreachable]);
    const mostLinked = await get(`/api/v1/crawls/${crawl.id}/pages?scope=external&sort_by=inlinks&sort=desc&per_page=10`);
    expect(mostLinked.data.map((entry: Body) => entry.inlinks).slice(0, 3)).toEqual([2, 2, 1]);
    expect(mostLinked.meta.total).toBe(crawl.external_checked);
    expect((await get(`/api/v1/crawls/${crawl.id}/pages?scope=external&state=unvisited`)).data).toEqual([]);
    expect((await get(`/api/v1/crawls/${crawl.id}/pages?scope=external&result=good`)).data).toEqual([]);
    // The internal list is as it was: no URL of the other host in it.
    const internal = await everyRow(get, `/api/v1/crawls/${crawl.id}/pages`);
    expect(internal.every((entry) => entry.external === false && entry.url.startsWith(site.origin))).toBe(true);

    const csv = await call(t, account, 'GET', `/api/v1/crawls/${crawl.id}/pages?scope=external&format=csv&status=4xx`);
    expect(csv.statusCode).toBe(200);
    const { rows } = csvObjects(csv.body);
    expect(rows.map((row) => [row.url, row.status_code, row.external, row.inlinks])).toEqual([[other.url('/gone'), '404', 'true', '2']]);
  });

  it('sends nothing to other hosts with external=0, and does not judge them', async () => {
    const before = other.requests.length;
    const started = await startCrawl(t, account, { url: site.url('/'), max_pages: 10, external: 0 });
    const ended = await untilCrawlEnded(t, account, started.id);
    expect(ended.state).toBe('done');
    expect(ended.external).toBe(0);
    expect(ended.external_checked).toBe(0);
    expect(other.requests.length).toBe(before);
    expect((await crawlIssues(t, account, ended.id)).broken_external_links).toBeUndefined();
    expect((await get(`/api/v1/crawls/${ended.id}/pages?scope=external`)).meta.total).toBe(0);
  });
});

forEachDialect('external URLs stored, claimed and recorded', (database) => {
  it('checks at most the cap, stores the rest unchecked and lists them as unvisited', async () => {
    const db = database().db;
    const site = await siteOf(db, { '/': {}, '/a': {} });
    const [home, a] = await Promise.all(['/', '/a'].map((path) => db.selectFrom('crawl_pages').select('id').where('url', '=', at(path)).where('crawl_id', '=', site.crawlId).executeTakeFirstOrThrow()));
    const urls = ['https://one.test/', 'https://two.test/x', 'https://two.test/y'];
    const first = await db.transaction().execute((trx) => storeExternalLinks(trx, site.crawlId, home.id, urls, { max: 2, reached: false }));
    expect(first).toEqual({ unchecked: 1, capReached: true });
    // Found again from another page: no new row, one more link.
    const again = await db.transaction().execute((trx) => storeExternalLinks(trx, site.crawlId, a.id, [urls[0], 'https://three.test/'], { max: 2, reached: false }));
    expect(again).toEqual({ unchecked: 1, capReached: true });
    const rows = await db.selectFrom('crawl_externals').select(['url', 'host', 'state', 'reason']).where('crawl_id', '=', site.crawlId).orderBy('id').execute();
    expect(rows).toEqual([
      { url: urls[0], host: 'one.test', state: 'pending', reason: null },
      { url: urls[1], host: 'two.test', state: 'pending', reason: null },
      { url: urls[2], host: 'two.test', state: 'done', reason: 'limit' },
      { url: 'https://three.test/', host: 'three.test', state: 'done', reason: 'limit' },
    ]);

    const unvisited = await readCrawlPages(db, site.crawlId, { scope: 'external', state: 'unvisited', sortBy: 'url', sort: 'asc', page: 1, perPage: 10 });
    expect(unvisited.total).toBe(4);
    expect(unvisited.items.map(({ url, reason, inlinks, external }) => ({ url, reason, inlinks, external }))).toEqual([
      { url: urls[0], reason: null, inlinks: 2, external: true },
      { url: 'https://three.test/', reason: 'limit', inlinks: 1, external: true },
      { url: urls[1], reason: null, inlinks: 1, external: true },
      { url: urls[2], reason: 'limit', inlinks: 1, external: true },
    ]);
  });

  it('claims a URL once per lease, at most the host\'s room, and records only the latest claim', async () => {
    const db = database().db;
    const site = await siteOf(db, { '/': {} });
    const { id: home } = await db.selectFrom('crawl_pages').select('id').where('crawl_id', '=', site.crawlId).executeTakeFirstOrThrow();
    await db.transaction().execute((trx) => storeExternalLinks(trx, site.crawlId, home, ['https://a.test/1', 'https://a.test/2', 'https://a.test/3', 'https://b.test/'], { max: 10, reached: false }));
    const at0 = { now: '2026-12-03T10:00:00.000Z', leaseUntil: '2026-12-03T10:01:00.000Z' };
    const first = await claimExternals(db, site.crawlId, at0, 8, (host) => (host === 'a.test' ? 1 : 2), []);
    expect(first.map((claim) => [claim.url, claim.attempts])).toEqual([['https://a.test/1', 1], ['https://b.test/', 1]]);
    const second = await claimExternals(db, site.crawlId, at0, 8, () => 2, ['a.test']);
    expect(second).toEqual([]);
    // The lease ran out (its process is thought dead): taken again, and only the new claim records.
    const later = { now: '2026-12-03T10:02:00.000Z', leaseUntil: '2026-12-03T10:03:00.000Z' };
    const retaken = await claimExternals(db, site.crawlId, later, 1, () => 2, []);
    expect(retaken.map((claim) => [claim.url, claim.attempts])).toEqual([['https://a.test/1', 2]]);
    const outcome = { status_code: 200, redirect_target: null, content_type: 'text/html', error: null };
    expect(await recordExternal(db, site.crawlId, first[0], outcome)).toBe(false);
    expect(await recordExternal(db, site.crawlId, retaken[0], outcome)).toBe(true);
    expect(await recordExternal(db, site.crawlId, retaken[0], outcome)).toBe(false);
    const { external_checked } = await db.selectFrom('crawls').select('external_checked').where('id', '=', site.crawlId).executeTakeFirstOrThrow();
    expect(external_checked).toBe(1);
  });
});
