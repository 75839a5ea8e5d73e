// Writes that run at once on one account's project (creates, privacy changes, deletes) all succeed:
// every transaction that writes a project's row and the account's reports version takes them in the
// same order, so on PostgreSQL none waits on another in a cycle (a deadlock is a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { call, createReport, listProjects, type Body } from '../support/api-fixtures.ts';

const ROUNDS = 3;
const EACH = 6;

describe.each(testDialects())('concurrent writes to one project [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite();
    for (let i = 0; i < EACH * 2; i++) site.route(`/p${i}`, html(goodPage()));
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('creates, changes and deletes reports of one project at once, and every one succeeds', async () => {
    const account = await t.createAccount();
    let expected = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const existing: Body[] = await Promise.all(Array.from({ length: EACH }, (_, i) => createReport(t, account, site.url(`/p${i}`))));
      const responses = await Promise.all([
        ...Array.from({ length: EACH }, (_, i) => call(t, account, 'POST', '/api/v1/reports', { url: site.url(`/p${EACH + i}`) })),
        ...existing.slice(0, EACH / 2).map((report) => call(t, account, 'DELETE', `/api/v1/reports/${report.id}`)),
        ...existing.slice(EACH / 2).map((report) => call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { privacy: 1 })),
      ]);
      for (const response of responses) expect(response.statusCode, response.body).toBeLessThan(300);
      expected += EACH + EACH / 2;
      const [project] = (await listProjects(t, account)).data;
      expect(project.reports_count).toBe(expected);
    }
  });
});
