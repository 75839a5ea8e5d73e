// GET /api/v1/crawls/{id}/diff (docs/crawls.md, "Comparing crawls"): a loopback site crawled, edited,
// and crawled again; the diff names the findings that are new, fixed or could not be judged, and the
// pages added, removed or answering another status. Then its refusals: 409, 422 on from, 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectInvalid, expectNotFound, type Account, type Body } from '../support/api-fixtures.ts';
import { redirect, simplePage, startCrawl, untilCrawlEnded } from '../support/crawl-fixtures.ts';
import { holdGate, html, startSite, type Site } from '../support/site-server.ts';

describe.each(testDialects())('crawl diffs through the API [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let account: Account;
  const gate = holdGate();
  let first: Body;
  let second: Body;

  const page = (title: string, links: string[]) => html(simplePage(title, links));
  const missing = html('<!doctype html><title>Not found</title><h1>Not found</h1>', 404);
  const crawlOf = async (path: string) => untilCrawlEnded(t, account, (await startCrawl(t, account, { url: site.url(path), max_pages: 20, sitemap: 0 })).id);

  beforeAll(async () => {
    site = await startSite({
      '/': page('Home of the roastery', ['/a', '/b', '/gone', '/old']),
      '/a': page('Beans from the mountains', ['/']),
      '/b': page('Brewing at home', ['/a', '/gone-b']),
      '/gone': missing,
      '/gone-b': missing,
      '/old': redirect('/a'),
      '/c': page('Cups and mugs', ['/']),
      '/missing': missing,
      '/held': gate.hold(page('A page that answers late', [])),
    });
    t = await startTestApp(dialect);
    account = await t.createAccount('differ');
    first = await crawlOf('/');
    // The edit: / links /c and /missing instead of /b and /gone, and /old is a page of its own now.
    site.route('/', page('Home of the roastery', ['/a', '/c', '/missing', '/old']));
    site.route('/old', page('The old shop, still open', ['/']));
    second = await crawlOf('/');
  });

  afterAll(async () => {
    gate.release();
    await t?.close();
    await site?.close();
  });

  it('compares a crawl with the account\'s previous done crawl of its URL: findings new, fixed, not comparable, and the pages', async () => {
    expect([first.state, second.state]).toEqual(['done', 'done']);
    const response = await call(t, account, 'GET', `/api/v1/crawls/${second.id}/diff`);
    expect(response.statusCode, response.body).toBe(200);
    const { data, status } = body(response);
    expect(status).toBe(200);
    const side = (crawl: Body) => ({
      id: crawl.id, url: crawl.url, score: crawl.score, result: crawl.result, issues: crawl.issues,
      pages_crawled: crawl.pages_crawled, limit_reached: crawl.limit_reached, finished_at: crawl.finished_at,
    });
    expect(data.from).toEqual(side(first));
    expect(data.to).toEqual(side(second));
    expect(data.score_delta).toBe(second.score - first.score);

    const byId = Object.fromEntries(data.issues.map((entry: Body) => [entry.id, entry]));
    // /gone was linked from /, which both crawls visited: fixed. /gone-b was linked from /b, which the
    // second crawl never reached: not comparable.
    expect(byId.broken_links).toEqual({
      id: 'broken_links',
      importance: 'high',
      new: [{ url: site.url('/missing'), status_code: 404, error: null, linked_from: [site.url('/')], linked_from_count: 1 }],
      fixed: [{ url: site.url('/gone'), status_code: 404, error: null, linked_from: [site.url('/')], linked_from_count: 1 }],
      persisting: 0,
      not_comparable: 1,
    });
    expect(byId.redirected_links).toMatchObject({ importance: 'low', new: [], persisting: 0, not_comparable: 0 });
    expect(byId.redirected_links.fixed).toEqual([expect.objectContaining({ url: site.url('/old'), redirect_target: site.url('/a') })]);
    // Visited by the second crawl only: /c and /missing; by the first only: /b, /gone, /gone-b.
    expect(data.pages).toEqual({ added: 2, removed: 3, status_changed: [{ url: site.url('/old'), from: 301, to: 200 }] });

    // Backwards, the same findings swap sides; the first crawl visited every page the second's findings name.
    const back = body(await call(t, account, 'GET', `/api/v1/crawls/${first.id}/diff?from=${second.id}`)).data;
    const backById = Object.fromEntries(back.issues.map((entry: Body) => [entry.id, entry]));
    expect(backById.broken_links.new.map((item: Body) => item.url).sort()).toEqual([site.url('/gone'), site.url('/gone-b')]);
    expect(backById.broken_links.fixed.map((item: Body) => item.url)).toEqual([site.url('/missing')]);
    expect(back.pages).toMatchObject({ added: 3, removed: 2, status_changed: [{ url: site.url('/old'), from: 200, to: 301 }] });
    expect(back.score_delta).toBe(first.score - second.score);
    expect(data.issues.map((entry: Body) => entry.id)).toEqual(['broken_links', 'redirected_links']);
  });

  it('answers 409 while the crawl runs, and 422 on from when there is nothing to compare with', async () => {
    const running = await startCrawl(t, account, { url: site.url('/held'), max_pages: 1, sitemap: 0 });
    const refused = await call(t, account, 'GET', `/api/v1/crawls/${running.id}/diff`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(body(refused)).toEqual({ message: 'The crawl has not finished.', status: 409 });

    expect(expectInvalid(await call(t, account, 'GET', `/api/v1/crawls/${first.id}/diff`), 'from').join(' ')).toMatch(/no earlier finished crawl/);
    expect(expectInvalid(await call(t, account, 'GET', `/api/v1/crawls/${second.id}/diff?from=${second.id}`), 'from').join(' ')).toMatch(/another crawl/);
    expect(expectInvalid(await call(t, account, 'GET', `/api/v1/crawls/${second.id}/diff?from=${running.id}`), 'from').join(' ')).toMatch(/has not finished/);
    expectInvalid(await call(t, account, 'GET', `/api/v1/crawls/${second.id}/diff?from=abc`), 'from');
    expectInvalid(await call(t, account, 'GET', `/api/v1/crawls/${second.id}/diff?from=0`), 'from');
    gate.release();
    expect((await untilCrawlEnded(t, account, running.id)).state).toBe('done');
  });

  it('keeps crawls to their account: 404 for another account\'s crawl as {id} or from, and for unknown ones', async () => {
    const other = await t.createAccount('other');
    expectNotFound(await call(t, other, 'GET', `/api/v1/crawls/${second.id}/diff`));
    expectNotFound(await call(t, other, 'GET', `/api/v1/crawls/${second.id}/diff?from=${first.id}`));
    const theirs = await startCrawl(t, other, { url: site.url('/c'), max_pages: 1, sitemap: 0 });
    expectNotFound(await call(t, account, 'GET', `/api/v1/crawls/${second.id}/diff?from=${theirs.id}`));
    expectNotFound(await call(t, account, 'GET', `/api/v1/crawls/${theirs.id}/diff?from=${first.id}`));
    expectNotFound(await call(t, account, 'GET', `/api/v1/crawls/${second.id}/diff?from=987654321`));
    expectNotFound(await call(t, account, 'GET', '/api/v1/crawls/987654321/diff'));
    const wrongMethod = await call(t, account, 'POST', `/api/v1/crawls/${second.id}/diff`, {});
    expect(wrongMethod.statusCode).toBe(405);
    await untilCrawlEnded(t, other, theirs.id);
  });
});
