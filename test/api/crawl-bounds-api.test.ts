// The crawl bounds as the API shows them (docs/crawls.md, "Bounds"): the crawl's requests,
// limit_reached and pages_unvisited; the pages list's state and scope, with every entry's external,
// links_dropped and reason, in JSON and CSV; and the per-account limit on crawls under way (429 with
// Retry-After, nothing stored or queued, after validation and the address guard). Crawls and their
// pages are stored directly, so no crawl runs: the app runs no background jobs.
import type { Insertable, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../src/db/database.ts';
import type { CrawlPagesTable, CrawlsTable } from '../../src/db/tables/crawl.table.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectInvalid, type Account } from '../support/api-fixtures.ts';
import { csvObjects } from '../support/csv.ts';

/** An address the app treats as public, so a crawl of it passes the address guard (nothing listens there). */
const PUBLIC_ADDRESS = '127.0.0.2';
const START_URL = `http://${PUBLIC_ADDRESS}:9/`;
const LIMIT_MESSAGE = 'The account already has 5 crawls queued or running; start another when one has ended.';

describe.each(testDialects())('crawl bounds through the API [%s]', (dialect) => {
  let t: TestApp;
  let handle: { db: Kysely<Database>; destroy(): Promise<void> };

  beforeAll(async () => {
    t = await startTestApp(dialect, { allowPrivateUrls: false, publicAddressesForTests: [PUBLIC_ADDRESS], workers: 0 });
    handle = createDb(t.config.databaseUrl);
  });
  afterAll(async () => {
    await handle?.destroy();
    await t?.close();
  });

  async function storeCrawl(account: Account, patch: Partial<Insertable<CrawlsTable>> = {}): Promise<number> {
    const row = await handle.db
      .insertInto('crawls')
      .values({
        organization_id: account.organization,
        url: START_URL,
        project: `${PUBLIC_ADDRESS}:9`,
        state: 'done',
        max_pages: 2,
        max_depth: 10,
        use_sitemap: 1,
        privacy: 0,
        render: 0,
        created_at: '2026-12-02T10:00:00.000Z',
        ...patch,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function storePages(crawlId: number, pages: Omit<Insertable<CrawlPagesTable>, 'crawl_id'>[]): Promise<void> {
    // One row at a time: a multi-row insert on SQLite writes null, not the default, for a column a row leaves out.
    for (const page of pages) await handle.db.insertInto('crawl_pages').values({ ...page, crawl_id: crawlId }).execute();
  }

  async function rowCount(table: 'crawls' | 'jobs', account?: Account): Promise<number> {
    let query = handle.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('count'));
    if (account && table === 'crawls') query = query.where('organization_id', '=', account.organization);
    return Number((await query.executeTakeFirstOrThrow()).count);
  }

  /** A crawl max_pages cut short: two pages visited (one with links dropped), three left, one waiting, one blocked. */
  async function boundedCrawl(account: Account): Promise<number> {
    const id = await storeCrawl(account, { pages_found: 7, pages_visited: 2, pages_crawled: 2, requests: 9, limit_reached: 1, score: 80, result: 'good' });
    const page = (url: string) => `http://${PUBLIC_ADDRESS}:9${url}`;
    await storePages(id, [
      { url: page('/'), state: 'done', depth: 0, status_code: 200, content_type: 'text/html', title: 'Home', score: 80, result: 'good', html: 1, inlinks: 2, links_dropped: 4 },
      { url: page('/a'), state: 'done', depth: 1, status_code: 404, content_type: 'text/html', inlinks: 1 },
      { url: page('/b'), state: 'pending', depth: 1, reason: 'max_pages', inlinks: 3 },
      { url: page('/c'), state: 'pending', depth: 2, reason: 'max_pages' },
      { url: page('/deep'), state: 'pending', depth: 11, reason: 'max_depth' },
      { url: page('/being-fetched'), state: 'fetching', depth: 1 },
      { url: page('/disallowed'), state: 'blocked', depth: null, in_sitemap: 1 },
    ]);
    return id;
  }

  it('shows requests, limit_reached and pages_unvisited on the crawl and in the list', async () => {
    const account = await t.createAccount('fields');
    const bounded = await boundedCrawl(account);
    // Counters caught mid-update (visited ahead of found) never show a negative number.
    const plain = await storeCrawl(account, { pages_found: 1, pages_visited: 2, requests: 4 });

    const shown = body(await call(t, account, 'GET', `/api/v1/crawls/${bounded}`)).data;
    expect(shown).toMatchObject({ requests: 9, limit_reached: true, pages_unvisited: 5, pages_found: 7 });
    expect(body(await call(t, account, 'GET', `/api/v1/crawls/${plain}`)).data).toMatchObject({ requests: 4, limit_reached: false, pages_unvisited: 0 });

    const listed = body(await call(t, account, 'GET', '/api/v1/crawls?sort=asc')).data;
    expect(listed.map((crawl: any) => [crawl.id, crawl.limit_reached, crawl.pages_unvisited])).toEqual([[bounded, true, 5], [plain, false, 0]]);
  });

  it('lists visited URLs by default and unvisited ones with their reason, never those being fetched or blocked', async () => {
    const account = await t.createAccount('states');
    const id = await boundedCrawl(account);
    const visited = body(await call(t, account, 'GET', `/api/v1/crawls/${id}/pages`));
    expect(visited.data.map((page: any) => page.url.replace(/^http:\/\/[^/]+/, ''))).toEqual(['/', '/a']);
    expect(visited.data[0]).toMatchObject({ external: false, links_dropped: 4, reason: null, status_code: 200, inlinks: 2 });
    expect(visited.data[1]).toMatchObject({ external: false, links_dropped: 0, reason: null, status_code: 404 });
    expect(body(await call(t, account, 'GET', `/api/v1/crawls/${id}/pages?state=visited`)).data).toEqual(visited.data);

    const unvisited = body(await call(t, account, 'GET', `/api/v1/crawls/${id}/pages?state=unvisited&sort_by=depth`));
    expect(unvisited.meta.total).toBe(3);
    expect(unvisited.data.map((page: any) => [page.url.replace(/^http:\/\/[^/]+/, ''), page.depth, page.reason])).toEqual([
      ['/b', 1, 'max_pages'],
      ['/c', 2, 'max_pages'],
      ['/deep', 11, 'max_depth'],
    ]);
    // Only the URL, its depth and the reason: stored inlinks are not shown for a URL never fetched.
    expect(unvisited.data[0]).toEqual({
      url: `http://${PUBLIC_ADDRESS}:9/b`, external: false, status_code: null, depth: 1, title: null, content_type: null, report_id: null,
      score: null, result: null, inlinks: 0, links_dropped: 0, redirect_target: null, error: null, reason: 'max_pages',
    });
  });

  it('combines state with status, result, sort and paging, and scope=external lists no link the site does not have', async () => {
    const account = await t.createAccount('combined');
    const id = await boundedCrawl(account);
    const read = async (query: string) => body(await call(t, account, 'GET', `/api/v1/crawls/${id}/pages?${query}`)).data.map((page: any) => page.url.replace(/^http:\/\/[^/]+/, ''));
    expect(await read('state=unvisited&sort_by=url&sort=desc&per_page=10&page=1')).toEqual(['/deep', '/c', '/b']);
    expect(await read('state=unvisited&per_page=10&page=2')).toEqual([]);
    expect(await read('state=unvisited&status=2xx')).toEqual([]);
    expect(await read('state=unvisited&result=good')).toEqual([]);
    expect(await read('state=visited&status=4xx')).toEqual(['/a']);
    expect(await read('status=2xx&result=good')).toEqual(['/']);
    expect(await read('scope=external')).toEqual([]);
    expect(await read('scope=external&state=unvisited')).toEqual([]);
    expect(await read('scope=internal&state=unvisited&sort_by=url')).toEqual(['/b', '/c', '/deep']);
  });

  it('refuses any other state or scope with a 422 naming the parameter and its values', async () => {
    const account = await t.createAccount('invalid');
    const id = await boundedCrawl(account);
    for (const [query, field, values] of [
      ['state=done', 'state', ['visited', 'unvisited']],
      ['state=', 'state', ['visited', 'unvisited']],
      ['scope=all', 'scope', ['internal', 'external']],
      ['scope=external&format=csv&state=maybe', 'state', ['visited', 'unvisited']],
    ] as const) {
      const messages = expectInvalid(await call(t, account, 'GET', `/api/v1/crawls/${id}/pages?${query}`), field);
      for (const value of values) expect(messages.join(' '), query).toContain(value);
    }
  });

  it('exports the columns external, links_dropped and reason, for visited and unvisited URLs', async () => {
    const account = await t.createAccount('csv');
    const id = await boundedCrawl(account);
    const visited = await call(t, account, 'GET', `/api/v1/crawls/${id}/pages?format=csv`);
    expect(visited.statusCode).toBe(200);
    const { header, rows } = csvObjects(visited.body);
    expect(header.slice(-3)).toEqual(['external', 'links_dropped', 'reason']);
    const path = (url: string) => url.replace(/^http:\/\/[^/]+/, '');
    expect(rows.map((row) => [path(row.url), row.external, row.links_dropped, row.reason])).toEqual([
      ['/', 'false', '4', ''],
      ['/a', 'false', '0', ''],
    ]);
    const unvisited = csvObjects((await call(t, account, 'GET', `/api/v1/crawls/${id}/pages?format=csv&state=unvisited&sort_by=depth&sort=desc`)).body);
    expect(unvisited.rows.map((row) => [row.depth, row.reason, row.status_code, row.inlinks])).toEqual([
      ['11', 'max_depth', '', '0'],
      ['2', 'max_pages', '', '0'],
      ['1', 'max_pages', '', '0'],
    ]);
    const external = csvObjects((await call(t, account, 'GET', `/api/v1/crawls/${id}/pages?format=csv&scope=external`)).body);
    expect(external).toEqual({ header, rows: [] });
  });

  it('answers 429 with Retry-After once the account has 5 crawls queued or running: nothing stored, nothing queued', async () => {
    const account = await t.createAccount('limit');
    // Ended crawls do not count.
    await storeCrawl(account, { state: 'done' });
    await storeCrawl(account, { state: 'failed' });
    await storeCrawl(account, { state: 'cancelled' });
    for (let i = 0; i < 4; i++) await storeCrawl(account, { state: i % 2 === 0 ? 'queued' : 'running' });

    const fifth = await call(t, account, 'POST', '/api/v1/crawls', { url: START_URL });
    expect(fifth.statusCode, fifth.body).toBe(202);
    const [crawls, jobs] = [await rowCount('crawls', account), await rowCount('jobs')];

    const refused = await call(t, account, 'POST', '/api/v1/crawls', { url: START_URL, max_pages: 10 });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(body(refused)).toEqual({ message: LIMIT_MESSAGE, status: 429 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(Number(refused.headers['retry-after']))).toBe(true);
    // JSON bodies too.
    const asJson = await t.app.inject({ method: 'POST', url: '/api/v1/crawls', headers: { ...account.auth, 'content-type': 'application/json' }, payload: { url: START_URL } });
    expect(asJson.statusCode).toBe(429);
    expect(await rowCount('crawls', account)).toBe(crawls);
    expect(await rowCount('jobs')).toBe(jobs);

    // Another account is not affected.
    const other = await t.createAccount('other');
    expect((await call(t, other, 'POST', '/api/v1/crawls', { url: START_URL })).statusCode).toBe(202);

    // Once one has ended, another may start.
    await handle.db.updateTable('crawls').set({ state: 'done' }).where('organization_id', '=', account.organization).where('state', '=', 'running').execute();
    expect((await call(t, account, 'POST', '/api/v1/crawls', { url: START_URL })).statusCode).toBe(202);
  });

  it('answers an invalid crawl, or one the address guard refuses, with its 422 before the limit', async () => {
    const account = await t.createAccount('order');
    for (let i = 0; i < 5; i++) await storeCrawl(account, { state: 'queued' });
    const before = await rowCount('crawls', account);
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: 'not a url' }), 'url');
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: START_URL, max_pages: 0 }), 'max_pages');
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: START_URL, max_depth: 'deep' }), 'max_depth');
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: 'http://127.0.0.1:9/' }), 'url');
    expect((await call(t, account, 'POST', '/api/v1/crawls', { url: START_URL })).statusCode).toBe(429);
    expect(await rowCount('crawls', account)).toBe(before);
  });

  it('describes the new fields and parameters in the OpenAPI document', async () => {
    const spec = body(await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' }));
    const schemas = spec.components.schemas;
    const crawl = Object.values(schemas).find((schema: any) => schema.$id === 'Crawl' || schema.title === 'Crawl') as any ?? schemas.Crawl;
    for (const field of ['requests', 'limit_reached', 'pages_unvisited']) {
      expect(crawl.properties[field].description, field).toMatch(/\w/);
    }
    const parameters = spec.paths['/api/v1/crawls/{id}/pages'].get.parameters.map((parameter: any) => [parameter.name, parameter.schema?.enum]);
    expect(parameters).toContainEqual(['state', ['visited', 'unvisited']]);
    expect(parameters).toContainEqual(['scope', ['internal', 'external']]);
  });
});
