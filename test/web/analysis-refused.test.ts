// An analysis refused because the account already runs its maximum, on the dashboard's two forms that
// analyse (a new report, analyse again): the same form again with the reason, 429 and Retry-After, as
// the API answers, and nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient } from './web-client.ts';

describe.each(testDialects())('an analysis refused on the dashboard [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    t = await startTestApp(dialect, { maxAnalysesPerAccount: 1, maxAnalyses: 10 });
    site = await startSite({
      '/page': html(goodPage()),
      // Answers once released: an analysis of it holds the account's one slot until then.
      '/slow': (_request, response) => void released.then(() => response.writeHead(200, { 'content-type': 'text/html' }).end(goodPage())),
    });
  });
  afterAll(async () => {
    release();
    await site?.close();
    await t?.close();
  });

  /** Waits until an analysis has reached the slow page, so it holds the account's slot. */
  async function waitForSlowRequest(): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if (site.requests.includes('/slow')) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no analysis reached the slow page');
  }

  it('shows the new-report form and the manage page again with the reason, 429 and Retry-After', async () => {
    const owner = await t.createAccount('owner');
    const existing = await t.app.services.reports.create(owner.organization, { url: site.url('/page'), privacy: 0 });
    const browser = new WebClient(t.app);
    await browser.signIn(owner.key);
    const holding = t.app.services.reports.create(owner.organization, { url: site.url('/slow'), privacy: 0 });
    await waitForSlowRequest();

    await browser.get('/dashboard/reports/new');
    const created = await browser.post('/dashboard/reports', { url: site.url('/page'), privacy: 0 });
    expect(created.statusCode).toBe(429);
    expect(created.headers['retry-after']).toBe('5');
    expect(created.body).toContain('<form method="post" action="/dashboard/reports"');
    expect(created.body).toMatch(/limit is 1/);
    expect(created.body).toContain(`value="${site.url('/page')}"`);

    await browser.get(`/dashboard/reports/${existing.id}`);
    const again = await browser.post(`/dashboard/reports/${existing.id}/regenerate`);
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('5');
    expect(again.body).toContain('<p class="form-error" role="alert">');
    expect(again.body).toMatch(/limit is 1/);

    release();
    await holding;
    // Neither refused form changed anything: the two reports, the first with its one run.
    const list = await t.app.services.lists.reports(owner.organization, { sortBy: 'id', sort: 'asc', page: 1, perPage: 10 });
    expect(list.items.map((report) => [report.id, report.runs_count])).toEqual([[existing.id, 1], [expect.any(Number), 1]]);
  });
});
