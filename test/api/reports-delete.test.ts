// DELETE /api/v1/reports/{id}, and ids that are not positive integers on every {id} route: a 404, as
// for an id that does not exist (docs/api.md, "Answers and errors").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import {
  body,
  call,
  createReport,
  expectJson,
  expectNotFound,
  listProjects,
  listReports,
  showReport,
  type Body,
} from '../support/api-fixtures.ts';

describe.each(testDialects())('DELETE /api/v1/reports/{id} [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/one': html(goodPage()), '/two': html(goodPage()) });
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('answers {id, object: "report", deleted: true, status: 200}; afterwards the report is a 404 everywhere', async () => {
    const account = await t.createAccount();
    const report: Body = await createReport(t, account, site.url('/one'));
    const response = await call(t, account, 'DELETE', `/api/v1/reports/${report.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expectJson(response);
    expect(body(response)).toEqual({ id: report.id, object: 'report', deleted: true, status: 200 });

    expectNotFound(await call(t, account, 'GET', `/api/v1/reports/${report.id}`));
    expectNotFound(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { privacy: 1 }));
    expectNotFound(await call(t, account, 'DELETE', `/api/v1/reports/${report.id}`));
    const list = await listReports(t, account);
    expect(list.meta.total).toBe(0);
  });

  it('deletes only that report', async () => {
    const account = await t.createAccount();
    const gone: Body = await createReport(t, account, site.url('/one'));
    const kept: Body = await createReport(t, account, site.url('/two'));
    expect((await call(t, account, 'DELETE', `/api/v1/reports/${gone.id}`)).statusCode).toBe(200);
    expect(await showReport(t, account, kept.id)).toEqual(kept);
    expect((await listReports(t, account)).data.map((item: Body) => item.id)).toEqual([kept.id]);
  });

  it('keeps the project while it has reports, updating its counts', async () => {
    const account = await t.createAccount();
    const first: Body = await createReport(t, account, site.url('/one'));
    await createReport(t, account, site.url('/two'));
    await call(t, account, 'DELETE', `/api/v1/reports/${first.id}`);
    const projects = await listProjects(t, account);
    expect(projects.data).toHaveLength(1);
    expect(projects.data[0]).toMatchObject({ project: first.project, reports_count: 1 });
  });

  it('sends no body and needs none: only the Authorization header', async () => {
    const account = await t.createAccount();
    const report: Body = await createReport(t, account, site.url('/one'));
    const response = await t.app.inject({ method: 'DELETE', url: `/api/v1/reports/${report.id}`, headers: account.auth });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('an unknown id: 404', async () => {
    const account = await t.createAccount();
    expectNotFound(await call(t, account, 'DELETE', '/api/v1/reports/987654321'));
  });

  describe('an id that is not a positive integer is a 404 on every {id} route', () => {
    const notIds = ['abc', '0', '-1', '1.5', '1e3', '0x10', '%20', '99999999999999999999999'];
    const cases = notIds.flatMap((id) => (['GET', 'PUT', 'DELETE'] as const).map((method) => [method, id] as const));
    it.each(cases)('%s /api/v1/reports/%s', async (method, id) => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, site.url('/one'));
      const fields = method === 'PUT' ? { privacy: 1 } : undefined;
      expectNotFound(await call(t, account, method, `/api/v1/reports/${id}`, fields));
      // Nothing happened to the account's report (1e3, 0x10 and friends never mean another id).
      expect(await showReport(t, account, report.id)).toEqual(report);
    });
  });
});
