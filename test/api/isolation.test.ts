// Two accounts on the same hosts: neither can see, change or delete the other's reports or projects,
// on any verb, and the answers never reveal that the other's resources exist (docs/api.md, "Answers and errors").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import {
  BAD_PAGE,
  body,
  call,
  createReport,
  expectNotFound,
  listProjects,
  listReports,
  showReport,
  type Account,
  type Body,
} from '../support/api-fixtures.ts';

describe.each(testDialects())('isolation between accounts [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let alice: Account;
  let bob: Account;
  let aliceReport: Body;
  let project: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/alice': html(goodPage()), '/bob': html(goodPage()), '/shared': html(goodPage()) });
    alice = await t.createAccount('alice');
    bob = await t.createAccount('bob');
    aliceReport = await createReport(t, alice, site.url('/alice'), { privacy: 2, password: 'alice-secret' });
    project = aliceReport.project;
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  /** Alice's report and project are exactly as they were. */
  async function aliceUntouched(): Promise<void> {
    expect(await showReport(t, alice, aliceReport.id)).toEqual(aliceReport);
    const projects = await listProjects(t, alice);
    expect(projects.data.map((entry: Body) => entry.project)).toContain(project);
  }

  it('GET another account\'s report: the same 404 as an id that does not exist', async () => {
    const theirs = await call(t, bob, 'GET', `/api/v1/reports/${aliceReport.id}`);
    const nobodys = await call(t, bob, 'GET', '/api/v1/reports/987654321');
    expectNotFound(theirs);
    expect(theirs.body).toBe(nobodys.body);
  });

  it('PUT another account\'s report (privacy): 404, unchanged', async () => {
    expectNotFound(await call(t, bob, 'PUT', `/api/v1/reports/${aliceReport.id}`, { privacy: 0 }));
    await aliceUntouched();
  });

  it('PUT another account\'s report (results=1): 404, nothing fetched, unchanged', async () => {
    site.route('/alice', html(BAD_PAGE));
    try {
      const fetched = site.requests.filter((path) => path === '/alice').length;
      expectNotFound(await call(t, bob, 'PUT', `/api/v1/reports/${aliceReport.id}`, { results: 1 }));
      expect(site.requests.filter((path) => path === '/alice').length).toBe(fetched);
      await aliceUntouched();
    } finally {
      site.route('/alice', html(goodPage()));
    }
  });

  it('PUT another account\'s report with an invalid body still answers 404, not 422', async () => {
    expectNotFound(await call(t, bob, 'PUT', `/api/v1/reports/${aliceReport.id}`, { privacy: 2 }));
    await aliceUntouched();
  });

  it('DELETE another account\'s report: 404, still there', async () => {
    expectNotFound(await call(t, bob, 'DELETE', `/api/v1/reports/${aliceReport.id}`));
    await aliceUntouched();
  });

  it('GET /reports lists none of another account\'s reports, whatever the filters', async () => {
    for (const query of ['', 'search=alice', `project=${encodeURIComponent(project)}`, 'result=good', 'sort_by=url&sort=asc']) {
      const list = await listReports(t, bob, query);
      expect(list.data, query).toEqual([]);
      expect(list.meta.total, query).toBe(0);
    }
  });

  it('GET /projects lists none of another account\'s projects', async () => {
    for (const query of ['', 'search=127', 'sort_by=project']) {
      const list = await listProjects(t, bob, query);
      expect(list.data, query).toEqual([]);
      expect(list.meta.total, query).toBe(0);
    }
  });

  it('DELETE another account\'s project: 404, its reports stay', async () => {
    expectNotFound(await call(t, bob, 'DELETE', `/api/v1/projects/${encodeURIComponent(project)}`));
    await aliceUntouched();
  });

  it('the same host is a separate project per account, with its own counts and its own delete', async () => {
    const carol = await t.createAccount('carol');
    const dave = await t.createAccount('dave');
    const carolReports = [await createReport(t, carol, site.url('/shared')), await createReport(t, carol, site.url('/bob'))];
    const daveReport: Body = await createReport(t, dave, site.url('/shared'));
    expect(daveReport.project).toBe(carolReports[0].project);

    expect((await listProjects(t, carol)).data).toMatchObject([{ project, reports_count: 2 }]);
    expect((await listProjects(t, dave)).data).toMatchObject([{ project, reports_count: 1 }]);

    const deleted = await call(t, dave, 'DELETE', `/api/v1/projects/${encodeURIComponent(project)}`);
    expect(deleted.statusCode).toBe(200);
    expect(body(deleted)).toMatchObject({ project, reports_deleted: 1 });
    for (const report of carolReports) expect(await showReport(t, carol, report.id)).toEqual(report);
    expect((await listProjects(t, carol)).data).toMatchObject([{ project, reports_count: 2 }]);
    await aliceUntouched();
  });

  it('deleting one\'s own report on a shared host leaves the other account\'s project counts alone', async () => {
    const erin = await t.createAccount('erin');
    const mine: Body = await createReport(t, erin, site.url('/shared'));
    const before = await listProjects(t, alice);
    expect((await call(t, erin, 'DELETE', `/api/v1/reports/${mine.id}`)).statusCode).toBe(200);
    expect(await listProjects(t, alice)).toEqual(before);
    expect((await listProjects(t, erin)).data).toEqual([]);
  });

  it('each account sees its own account record', async () => {
    expect(body(await call(t, alice, 'GET', '/api/v1/account')).data.id).toBe(alice.id);
    expect(body(await call(t, bob, 'GET', '/api/v1/account')).data.id).toBe(bob.id);
  });
});
