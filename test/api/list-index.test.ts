// Report lists answered from an account's in-memory index (src/services/list-index.ts) must be the
// lists the database answers, byte for byte, and must show a change made by any server at once. A
// second app on the same database stands in for another process; one started with no index budget
// answers every list through SQL.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { call, createReport, VERDICT_PAGES, type Body } from '../support/api-fixtures.ts';
import { startSite, type Site } from '../support/site-server.ts';
import { requestOverSocket } from '../support/over-socket.ts';

type Account = Awaited<ReturnType<TestApp['createAccount']>>;

/** `{project}` stands for the site's project (its host and port). */
const QUERIES = [
  '',
  'sort_by=url&sort=asc',
  'sort_by=generated_at&sort=desc&per_page=10',
  'sort_by=result&sort=asc&per_page=10&page=2',
  'result=good',
  'project={project}&result=bad&sort_by=url&sort=desc',
  'project={project}&sort_by=url&per_page=10&page=2',
  'project=nowhere.example&sort_by=url',
  'per_page=10&page=9',
];

describe.each(testDialects())('report lists from the in-memory index [%s]', (dialect) => {
  let t: TestApp;
  let sqlOnly: FastifyInstance;
  let other: FastifyInstance;
  let site: Site;

  async function listText(app: FastifyInstance, account: Account, query: string): Promise<string> {
    const response = await call({ ...t, app }, account, 'GET', `/api/v1/reports${query ? `?${query}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    sqlOnly = await buildApp({ ...t.config, listIndexMb: 0, listCacheMb: 0 });
    other = await buildApp(t.config);
    site = await startSite();
    for (const verdict of ['good', 'decent', 'bad'] as const) site.route(`/${verdict}`, VERDICT_PAGES[verdict]);
  });
  afterAll(async () => {
    await site?.close();
    await other?.close();
    await sqlOnly?.close();
    await t?.close();
  });

  it('answers every list as SQL does once built, and a report another server adds shows at once', async () => {
    const account = await t.createAccount();
    // Twelve reports (two pages of ten), urls out of verdict order and one url twice (a tie by url).
    for (let i = 0; i < 12; i++) {
      const verdict = (['bad', 'good', 'decent'] as const)[(i * 5) % 3];
      await createReport(t, account, site.url(`/${verdict}?n=${i % 11}`));
    }
    const index = t.app.services.listIndex;
    // Two misses under one version build the account's index.
    await listText(t.app, account, 'per_page=10');
    await listText(t.app, account, 'per_page=10&page=2');
    await index.idle();
    expect(index.usage().accounts).toBe(1);
    const project = new URL(site.origin).host;
    for (const template of QUERIES) {
      const query = template.replace('{project}', encodeURIComponent(project));
      expect(await listText(t.app, account, query), query).toBe(await listText(sqlOnly, account, query));
    }

    const added: Body = await createReport({ ...t, app: other }, account, site.url('/bad'));
    const after = JSON.parse(await listText(t.app, account, `project=${encodeURIComponent(project)}&result=bad&sort_by=id&sort=desc`));
    expect(after.data[0].id).toBe(added.id);
    expect(after.meta.total).toBe(5);
    expect(index.usage().accounts).toBe(0);
  });

  it('writes a page that is one range of the index from it: the same bytes and headers over a socket', async () => {
    const account = await t.createAccount();
    for (const verdict of ['bad', 'good', 'bad', 'decent', 'bad'] as const) await createReport(t, account, site.url(`/${verdict}`));
    await listText(t.app, account, '');
    await listText(t.app, account, 'page=2');
    await t.app.services.listIndex.idle();
    expect(t.app.services.listIndex.usage().accounts).toBeGreaterThan(0);
    const path = `/api/v1/reports?project=${encodeURIComponent(new URL(site.origin).host)}&result=bad&sort_by=url&sort=asc`;
    // One Host for both apps, so their links are the same.
    const headers = { host: 'api.example.test', accept: 'application/json', ...account.auth };
    const overSocket = (app: FastifyInstance, method: 'GET' | 'HEAD') => requestOverSocket(app, method, path, headers);
    const fromIndex = await overSocket(t.app, 'GET');
    const fromSql = await overSocket(sqlOnly, 'GET');
    expect(fromIndex.status).toBe(200);
    expect(fromIndex.body).toBe(fromSql.body);
    expect(JSON.parse(fromIndex.body).data).toHaveLength(3);
    const varying = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
    const stable = (sent: Record<string, unknown>) => Object.fromEntries(Object.entries(sent).filter(([name]) => !varying.has(name)));
    expect(stable(fromIndex.headers)).toEqual(stable(fromSql.headers));
    expect(fromIndex.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(fromIndex.headers['x-ratelimit-remaining'])).toBeLessThan(10_000);
    const head = await overSocket(t.app, 'HEAD');
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(fromSql.body)));
  });

  it('never answers one account from another\'s index', async () => {
    const owner = await t.createAccount();
    const stranger = await t.createAccount();
    await createReport(t, owner, site.url('/good'));
    await listText(t.app, owner, '');
    await listText(t.app, owner, 'page=2');
    await t.app.services.listIndex.idle();
    const strangers = JSON.parse(await listText(t.app, stranger, 'sort_by=url'));
    expect(strangers.data).toEqual([]);
    expect(strangers.meta.total).toBe(0);
  });
});
