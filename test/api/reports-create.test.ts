// POST /api/v1/reports and GET /api/v1/reports/{id} through real routing (docs/api.md,
// "Reports" and `Report`): the created report's shape, url rules, privacy and password, fetch failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, text, type Site } from '../support/site-server.ts';
import {
  ISO_TIME,
  VERDICTS,
  body,
  call,
  createReport,
  expectInvalid,
  expectJson,
  listProjects,
  listReports,
  refusedUrl,
  showReport,
  type Account,
  type Body,
} from '../support/api-fixtures.ts';

const SECRET = 'correct horse battery staple';
const REPORT_FIELDS = [
  'id', 'url', 'project', 'organization', 'privacy', 'password', 'result', 'score', 'issues', 'page', 'results', 'rendered', 'lab', 'structured_data',
  'state', 'last_error', 'runs_count', 'schedule', 'next_run_at', 'generated_at', 'created_at', 'updated_at',
];

/** The account has no report and no project: what "nothing is stored" means to an API user. */
async function expectNothingStored(t: TestApp, account: Account): Promise<void> {
  const reports = await listReports(t, account);
  expect(reports.meta.total).toBe(0);
  expect(reports.data).toEqual([]);
  const projects = await listProjects(t, account);
  expect(projects.meta.total).toBe(0);
}

describe.each(testDialects())('POST /api/v1/reports [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let port: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({
      '/': html(goodPage()),
      '/pricing': html(goodPage('Pricing of fresh mountain coffee, by the bag or by subscription')),
      '/Mixed/Case': html(goodPage()),
      '/missing': html(goodPage('This page is gone'), 404),
      '/broken': html(goodPage('The server failed'), 500),
      '/old': (_request, response) => {
        response.writeHead(301, { location: '/pricing' });
        response.end();
      },
      '/plain.txt': text('just text'),
      '/data.json': text('{"a":1}', 'application/json'),
      '/image.png': text('\x89PNG\r\n\x1a\n', 'image/png'),
      '/doc.pdf': text('%PDF-1.4', 'application/pdf'),
    });
    port = new URL(site.origin).port;
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  describe('a created report', () => {
    it('answers 201 with {data, status: 201}, a Location header and JSON', async () => {
      const account = await t.createAccount();
      const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/pricing') });
      expect(response.statusCode, response.body).toBe(201);
      expectJson(response);
      const parsed = body(response);
      expect(Object.keys(parsed).sort()).toEqual(['data', 'status']);
      expect(parsed.status).toBe(201);
      expect(Number.isInteger(parsed.data.id) && parsed.data.id > 0).toBe(true);
      expect(response.headers.location).toMatch(new RegExp(`/api/v1/reports/${parsed.data.id}$`));
    });

    it('has every field of the report object, with the types docs/api.md gives', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url('/pricing'));
      expect(Object.keys(report).sort()).toEqual([...REPORT_FIELDS].sort());
      expect(report.url).toBe(site.url('/pricing'));
      expect(report.project).toBe(`127.0.0.1:${port}`);
      expect(report.organization).toBe(account.organization);
      expect(report.privacy).toBe(0);
      expect(report.password).toBe(false);
      expect(report.state).toBe('done');
      expect(report.last_error).toBeNull();
      expect(report.runs_count).toBe(1);
      // The page's one JSON-LD Article (line 9): valid schema.org, and valid for Google's Article
      // feature, which requires nothing; author, dateModified, datePublished and image are warnings.
      expect(report.structured_data).toEqual({
        schema_org_version: '30.0',
        items: [{ format: 'json-ld', type: 'Article', line: 9 }],
        rich_results: [expect.objectContaining({ feature: 'Article', type: 'Article', line: 9, valid: true, retired: null, errors: [] })],
        errors: 0,
        warnings: 4,
        validation_errors: 0,
      });
      expect(VERDICTS).toContain(report.result);
      expect(Number.isInteger(report.score) && report.score >= 0 && report.score <= 100).toBe(true);
      expect(report.generated_at).toMatch(ISO_TIME);
      expect(report.created_at).toMatch(ISO_TIME);
      expect(report.updated_at).toMatch(ISO_TIME);
    });

    it('carries the facts of the fetch in page', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url('/'));
      expect(report.page).toMatchObject({
        final_url: site.url('/'),
        status_code: 200,
        redirects: [],
        charset: 'utf-8',
        http_version: '1.1',
      });
      expect(report.page.content_type).toMatch(/^text\/html/);
      expect(report.page.bytes).toBe(Buffer.byteLength(goodPage()));
      expect(Number.isInteger(report.page.load_time_ms) && report.page.load_time_ms >= 0).toBe(true);
    });

    it('records a redirect chain in page and keeps the url as submitted', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url('/old'));
      expect(report.url).toBe(site.url('/old'));
      expect(report.page.final_url).toBe(site.url('/pricing'));
      expect(report.page.redirects).toEqual([{ url: site.url('/old'), status_code: 301 }]);
    });

    it('has check results in the contract shape, and issues that count the failed checks', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url('/'));
      const results = Object.entries<Body>(report.results);
      expect(results.length).toBeGreaterThan(0);
      const failed = { high: 0, medium: 0, low: 0 } as Record<string, number>;
      for (const [id, result] of results) {
        expect([true, false, null], id).toContain(result.passed);
        expect(['high', 'medium', 'low'], id).toContain(result.importance);
        expect(['seo', 'performance', 'security', 'miscellaneous', 'accessibility'], id).toContain(result.category);
        expect(result, id).toHaveProperty('value');
        expect(result.errors === null || (typeof result.errors === 'object' && !Array.isArray(result.errors)), id).toBe(true);
        if (result.errors) for (const items of Object.values(result.errors)) expect(Array.isArray(items), id).toBe(true);
        if (result.passed === null) expect(typeof result.reason, id).toBe('string');
        else expect(result, id).not.toHaveProperty('reason');
        if (result.passed === false) failed[result.importance] += 1;
      }
      expect(report.issues).toEqual(failed);
      expect(report.results.http_status.passed).toBe(true);
    });

    it('is shown by GET /api/v1/reports/{id} exactly as create answered, in {data, status: 200}', async () => {
      const account = await t.createAccount();
      const created: Body = await createReport(t, account, site.url('/pricing'));
      const response = await call(t, account, 'GET', `/api/v1/reports/${created.id}`);
      expect(response.statusCode).toBe(200);
      expectJson(response);
      expect(body(response)).toEqual({ data: created, status: 200 });
    });

    it('gets ids that grow with each report', async () => {
      const account = await t.createAccount();
      const first: Body = await createReport(t, account, site.url('/'));
      const second: Body = await createReport(t, account, site.url('/'));
      expect(second.id).toBeGreaterThan(first.id);
    });
  });

  describe('the url', () => {
    it('is normalised: scheme and host lower-case, #fragment dropped; project is host:port', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, `HTTP://LOCALHOST:${port}/Mixed/Case?b=2&a=1#section`);
      expect(report.url).toBe(`http://localhost:${port}/Mixed/Case?b=2&a=1`);
      expect(report.project).toBe(`localhost:${port}`);
    });

    it('is accepted at exactly 2048 characters', async () => {
      const account = await t.createAccount();
      const path = `/${'a'.repeat(2048 - site.origin.length - 1)}`;
      site.route(path, html(goodPage()));
      const report: Body = await createReport(t, account, site.url(path));
      expect(report.url).toHaveLength(2048);
    });

    const invalidUrls: [string, (origin: string) => Record<string, string>][] = [
      ['missing', () => ({})],
      ['empty', () => ({ url: '' })],
      ['relative', () => ({ url: '/pricing' })],
      ['without a scheme', (origin) => ({ url: origin.replace('http://', '') + '/pricing' })],
      ['ftp:', (origin) => ({ url: origin.replace('http:', 'ftp:') + '/pricing' })],
      ['mailto:', () => ({ url: 'mailto:someone@example.com' })],
      ['javascript:', () => ({ url: 'javascript:alert(1)' })],
      ['with a user and password', (origin) => ({ url: origin.replace('http://', 'http://user:secret@') + '/' })],
      ['with a user name', (origin) => ({ url: origin.replace('http://', 'http://user@') + '/' })],
      ['longer than 2048 characters', (origin) => ({ url: `${origin}/${'a'.repeat(2049 - origin.length)}` })],
    ];
    it.each(invalidUrls)('%s: 422 on url, nothing stored, nothing fetched', async (_name, fields) => {
      const account = await t.createAccount();
      const requestsBefore = site.requests.length;
      const response = await call(t, account, 'POST', '/api/v1/reports', { ...fields(site.origin), privacy: 0 });
      expectInvalid(response, 'url');
      expect(site.requests.length).toBe(requestsBefore);
      await expectNothingStored(t, account);
    });
  });

  describe('privacy and password', () => {
    it('privacy defaults to 0 (public) with no password', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url('/'));
      expect(report.privacy).toBe(0);
      expect(report.password).toBe(false);
    });

    it.each([0, 1])('privacy %i is stored, and a password sent with it is ignored', async (privacy) => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url('/'), { privacy, password: SECRET });
      expect(report.privacy).toBe(privacy);
      expect(report.password).toBe(false);
      expect((await showReport(t, account, report.id)).password).toBe(false);
    });

    it('privacy 2 with a password: stored as set, the password never echoed by create, show or list', async () => {
      const account = await t.createAccount();
      const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), privacy: 2, password: SECRET });
      expect(response.statusCode).toBe(201);
      const report = body(response).data;
      expect(report.privacy).toBe(2);
      expect(report.password).toBe(true);
      expect(response.body).not.toContain(SECRET);
      const shown = await call(t, account, 'GET', `/api/v1/reports/${report.id}`);
      expect(body(shown).data.password).toBe(true);
      expect(shown.body).not.toContain(SECRET);
      const listed = await call(t, account, 'GET', '/api/v1/reports');
      expect(body(listed).data[0].password).toBe(true);
      expect(listed.body).not.toContain(SECRET);
    });

    it.each([
      ['missing', {}],
      ['empty', { password: '' }],
      ['longer than 128 characters', { password: 'p'.repeat(129) }],
    ])('privacy 2 with a password %s: 422 on password, nothing stored', async (_name, fields) => {
      const account = await t.createAccount();
      const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), privacy: 2, ...fields });
      expectInvalid(response, 'password');
      if ('password' in fields && fields.password) expect(response.body).not.toContain(fields.password);
      await expectNothingStored(t, account);
    });

    it.each([
      ['1 character', 'x'],
      ['128 characters', 'p'.repeat(128)],
    ])('privacy 2 accepts a password of %s', async (_name, password) => {
      const account = await t.createAccount();
      const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), privacy: 2, password });
      expect(response.statusCode, response.body).toBe(201);
      expect(body(response).data.password).toBe(true);
      if (password.length > 1) expect(response.body).not.toContain(password);
    });

    it.each(['3', '-1', '9', 'abc', '1.5', 'public'])('privacy=%s: 422 on privacy, nothing stored', async (privacy) => {
      const account = await t.createAccount();
      const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), privacy });
      expectInvalid(response, 'privacy');
      await expectNothingStored(t, account);
    });
  });

  describe('bodies', () => {
    it('accepts application/json as well as a form', async () => {
      const account = await t.createAccount();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { ...account.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: site.url('/'), privacy: 2, password: SECRET }),
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(body(response).data).toMatchObject({ url: site.url('/'), privacy: 2, password: true });
      expect(response.body).not.toContain(SECRET);
    });

    it('ignores unknown fields', async () => {
      const account = await t.createAccount();
      const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), colour: 'blue', id: 999999 });
      expect(response.statusCode, response.body).toBe(201);
      expect(body(response).data.id).not.toBe(999999);
      expect(body(response).data).not.toHaveProperty('colour');
    });
  });

  describe('pages that answer with an HTTP error status', () => {
    it.each([
      ['/missing', 404],
      ['/broken', 500],
    ])('%s (%i): the report is created, http_status fails and the verdict is bad', async (path, status) => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url(path));
      expect(report.page.status_code).toBe(status);
      expect(report.results.http_status.passed).toBe(false);
      // The error page's own markup is well made (it scores as a decent page would): the status alone makes it bad.
      expect(report.score).toBeGreaterThanOrEqual(50);
      expect(report.result).toBe('bad');
      expect((await listReports(t, account, 'result=bad')).data.map((item: Body) => item.id)).toEqual([report.id]);
      expect((await showReport(t, account, report.id)).id).toBe(report.id);
      const listed = await listReports(t, account);
      expect(listed.data.map((item: Body) => item.id)).toEqual([report.id]);
      const projects = await listProjects(t, account);
      expect(projects.data.map((project: Body) => project.project)).toEqual([`127.0.0.1:${port}`]);
    });
  });

  describe('targets that cannot be analysed: 422 on url with the reason, nothing stored', () => {
    it.each(['/plain.txt', '/data.json', '/image.png', '/doc.pdf'])('not HTML: %s', async (path) => {
      const account = await t.createAccount();
      const messages = expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url(path) }), 'url');
      expect(messages.join(' ').length).toBeGreaterThan(10);
      await expectNothingStored(t, account);
    });

    it('refused connection', async () => {
      const account = await t.createAccount();
      expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: await refusedUrl('/page') }), 'url');
      await expectNothingStored(t, account);
    });

    it('a host name that does not resolve', async () => {
      const account = await t.createAccount();
      expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: 'http://no-such-host.invalid/' }), 'url');
      await expectNothingStored(t, account);
    });

    it('a failed attempt leaves the account\'s other reports and projects as they were', async () => {
      const account = await t.createAccount();
      const kept: Body = await createReport(t, account, site.url('/'));
      const projectsBefore = await listProjects(t, account);
      expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/plain.txt') }), 'url');
      const reports = await listReports(t, account);
      expect(reports.data.map((item: Body) => item.id)).toEqual([kept.id]);
      expect(await listProjects(t, account)).toEqual(projectsBefore);
    });
  });
});

describe.each(testDialects())('POST /api/v1/reports, operator limits [%s]', (dialect) => {
  let limited: TestApp;
  let guarded: TestApp;
  let site: Site;

  beforeAll(async () => {
    limited = await startTestApp(dialect, { maxPageBytes: 4096, fetchTimeoutMs: 1000 });
    guarded = await startTestApp(dialect, { allowPrivateUrls: false });
    site = await startSite({
      '/': html(goodPage()),
      '/huge': html(`<!doctype html><title>Huge</title><p>${'coffee '.repeat(5000)}</p>`),
      // Never answers: only the fetch deadline ends the request.
      '/hangs': () => undefined,
    });
  });
  afterAll(async () => {
    await site?.close();
    await limited?.close();
    await guarded?.close();
  });

  it('a page larger than the size limit: 422 on url, nothing stored', async () => {
    const account = await limited.createAccount();
    expectInvalid(await call(limited, account, 'POST', '/api/v1/reports', { url: site.url('/huge') }), 'url');
    await expectNothingStored(limited, account);
  });

  it('a page that does not answer before the deadline: 422 on url, nothing stored', async () => {
    const account = await limited.createAccount();
    expectInvalid(await call(limited, account, 'POST', '/api/v1/reports', { url: site.url('/hangs') }), 'url');
    await expectNothingStored(limited, account);
  });

  it.each(['127.0.0.1', 'localhost'])('a loopback target (%s) when private addresses are not allowed: 422 on url, nothing stored', async (host) => {
    const account = await guarded.createAccount();
    const url = site.url('/').replace('127.0.0.1', host);
    expectInvalid(await call(guarded, account, 'POST', '/api/v1/reports', { url }), 'url');
    await expectNothingStored(guarded, account);
  });
});
