// PUT /api/v1/reports/{id} (docs/api.md): privacy and password changes, results=1 regeneration, and a
// failed regeneration that leaves the report exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, routeFreshGoodPage, startSite, text, type Site } from '../support/site-server.ts';
import {
  BAD_PAGE,
  atFrozenTime,
  body,
  call,
  createReport,
  expectInvalid,
  expectJson,
  expectNotFound,
  listProjects,
  showReport,
  type Account,
  type Body,
} from '../support/api-fixtures.ts';

const SECRET = 'open sesame, but slowly';
const LONG_AGO = '2021-06-01T12:00:00.000Z';

describe.each(testDialects())('PUT /api/v1/reports/{id} [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  const freshPath = () => routeFreshGoodPage(site);

  async function put(account: Account, id: number, fields?: Record<string, string | number>) {
    return call(t, account, 'PUT', `/api/v1/reports/${id}`, fields);
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  describe('privacy and password', () => {
    it('privacy=1: 200 with the full report in {data, status: 200}; show agrees', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()));
      const response = await put(account, report.id, { privacy: 1 });
      expect(response.statusCode, response.body).toBe(200);
      expectJson(response);
      const parsed = body(response);
      expect(Object.keys(parsed).sort()).toEqual(['data', 'status']);
      expect(parsed.status).toBe(200);
      expect(parsed.data).toMatchObject({ id: report.id, url: report.url, privacy: 1, password: false });
      expect(parsed.data.results).toEqual(report.results);
      expect(await showReport(t, account, report.id)).toEqual(parsed.data);
    });

    it('privacy=2 with a password: password true, never echoed', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()));
      const response = await put(account, report.id, { privacy: 2, password: SECRET });
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response).data).toMatchObject({ privacy: 2, password: true });
      expect(response.body).not.toContain(SECRET);
      const shown = await call(t, account, 'GET', `/api/v1/reports/${report.id}`);
      expect(shown.body).not.toContain(SECRET);
    });

    it.each([
      ['no password', {}],
      ['an empty password', { password: '' }],
    ])('privacy=2 with %s on a report that has none: 422 on password, report unchanged', async (_name, fields) => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()), { privacy: 1 });
      expectInvalid(await put(account, report.id, { privacy: 2, ...fields }), 'password');
      expect(await showReport(t, account, report.id)).toEqual(report);
    });

    it('privacy=2 with a password over 128 characters: 422 on password, not echoed, report unchanged', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()));
      const tooLong = 'q'.repeat(129);
      const response = await put(account, report.id, { privacy: 2, password: tooLong });
      expectInvalid(response, 'password');
      expect(response.body).not.toContain(tooLong);
      expect(await showReport(t, account, report.id)).toEqual(report);
    });

    it('privacy=2 without a password on a report that already has one keeps it', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()), { privacy: 2, password: SECRET });
      const response = await put(account, report.id, { privacy: 2 });
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response).data).toMatchObject({ privacy: 2, password: true });
    });

    it.each([0, 1])('privacy=%i removes the password: making it password-protected again needs a new one', async (privacy) => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()), { privacy: 2, password: SECRET });
      const response = await put(account, report.id, { privacy });
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response).data).toMatchObject({ privacy, password: false });
      expectInvalid(await put(account, report.id, { privacy: 2 }), 'password');
      expect((await showReport(t, account, report.id)).privacy).toBe(privacy);
    });

    it('a password sent with privacy 0 or 1 is ignored', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()));
      const response = await put(account, report.id, { privacy: 1, password: SECRET });
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response).data).toMatchObject({ privacy: 1, password: false });
      expect(response.body).not.toContain(SECRET);
    });

    it.each(['3', '-1', 'abc', '1.5'])('privacy=%s: 422 on privacy, report unchanged', async (privacy) => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()));
      expectInvalid(await put(account, report.id, { privacy }), 'privacy');
      expect(await showReport(t, account, report.id)).toEqual(report);
    });

    it.each(['2', '-1', 'yes', '0.5'])('results=%s: 422 on results, nothing fetched, report unchanged', async (results) => {
      const account = await t.createAccount();
      const path = freshPath();
      const report: Body = await createReport(t, account, site.url(path));
      const fetched = site.requests.filter((requested) => requested === path).length;
      expectInvalid(await put(account, report.id, { results }), 'results');
      expect(site.requests.filter((requested) => requested === path).length).toBe(fetched);
      expect(await showReport(t, account, report.id)).toEqual(report);
    });
  });

  describe('bodies', () => {
    it.each([
      ['an empty form', {}],
      ['no body at all (only the Authorization header)', undefined],
    ])('every field is optional: %s answers 200 and changes nothing', async (_name, fields) => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()), { privacy: 1 });
      const { updated_at: _updatedAt, ...unchanged } = report;
      const response = await put(account, report.id, fields);
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response).data).toMatchObject(unchanged);
    });

    it('accepts application/json', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()));
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/reports/${report.id}`,
        headers: { ...account.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ privacy: 2, password: SECRET }),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response).data).toMatchObject({ privacy: 2, password: true });
    });

    it('ignores unknown fields', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(freshPath()));
      const response = await put(account, report.id, { privacy: 1, url: 'http://elsewhere.test/', score: 1 });
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response).data).toMatchObject({ url: report.url, score: report.score, privacy: 1 });
    });
  });

  describe('results', () => {
    it('results=0 and no results field leave the analysis alone, even when the page has changed', async () => {
      const account = await t.createAccount();
      const path = freshPath();
      const report: Body = await createReport(t, account, site.url(path));
      site.route(path, html(BAD_PAGE));
      const fetched = site.requests.filter((requested) => requested === path).length;
      for (const fields of [{ results: 0 }, { privacy: 1 }] as Record<string, number>[]) {
        const response = await put(account, report.id, fields);
        expect(response.statusCode, response.body).toBe(200);
        const data = body(response).data;
        for (const field of ['generated_at', 'result', 'score', 'issues', 'page', 'results']) {
          expect(data[field], field).toEqual(report[field]);
        }
      }
      expect(site.requests.filter((requested) => requested === path).length).toBe(fetched);
    });

    it('results=1 analyses the url again: new generated_at, page, results, score and result', async () => {
      const account = await t.createAccount();
      const path = freshPath();
      const report: Body = await atFrozenTime(LONG_AGO, () => createReport(t, account, site.url(path), { privacy: 1 }));
      expect(report.result).toBe('good');
      site.route(path, html(BAD_PAGE, 404));
      const response = await put(account, report.id, { results: 1 });
      expect(response.statusCode, response.body).toBe(200);
      const data = body(response).data;
      expect(data.generated_at > report.generated_at).toBe(true);
      expect(data).toMatchObject({ id: report.id, url: report.url, project: report.project, privacy: 1, created_at: report.created_at });
      expect(data.page.status_code).toBe(404);
      expect(data.page.bytes).toBe(Buffer.byteLength(BAD_PAGE));
      expect(data.results.http_status.passed).toBe(false);
      expect(data.result).toBe('bad');
      expect(data.score).toBeLessThan(report.score);
      expect(await showReport(t, account, report.id)).toEqual(data);
    });

    it('results=1 moves the project\'s result_counts with the new verdict', async () => {
      const account = await t.createAccount();
      const path = freshPath();
      const report: Body = await createReport(t, account, site.url(path));
      const before = (await listProjects(t, account)).data[0];
      expect(before.result_counts).toEqual({ good: 1, decent: 0, bad: 0 });
      site.route(path, html(BAD_PAGE));
      expect((await put(account, report.id, { results: 1 })).statusCode).toBe(200);
      const after = (await listProjects(t, account)).data[0];
      expect(after).toMatchObject({ project: report.project, reports_count: 1, result_counts: { good: 0, decent: 0, bad: 1 } });
    });

    it.each([
      ['does not answer HTML any more', (s: Site, path: string) => s.route(path, text('gone to plain text'))],
      ['has gone down', (s: Site) => s.close()],
    ])('results=1 when the target %s: 422, and the report is left exactly as it was', async (_name, breakIt) => {
      const own = await startSite();
      try {
        const account = await t.createAccount();
        own.route('/', html(goodPage()));
        const report: Body = await createReport(t, account, own.url('/'), { privacy: 2, password: SECRET });
        const projects = await listProjects(t, account);
        await breakIt(own, '/');
        const response = await put(account, report.id, { results: 1, privacy: 0 });
        expect(response.statusCode, response.body).toBe(422);
        expectJson(response);
        const parsed = body(response);
        expect(parsed.message).toBe('The given data was invalid.');
        expect(parsed.status).toBe(422);
        expect(Object.keys(parsed.errors).length).toBeGreaterThan(0);
        expect(await showReport(t, account, report.id)).toEqual(report);
        expect(await listProjects(t, account)).toEqual(projects);
      } finally {
        await own.close();
      }
    });
  });

  it('an unknown id: 404', async () => {
    const account = await t.createAccount();
    expectNotFound(await put(account, 987654321, { privacy: 1 }));
  });
});
