// The dashboard through real routing: the reports list answers the same query as the API, and the
// forms create, change privacy, analyse again and delete through the same services, each behind a
// CSRF token and the owner's session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { VERDICT_PAGES, createReport, listReports, refusedUrl, showReport, type Account } from '../support/api-fixtures.ts';
import { goodPage, holdGate, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectNoInlineCode, linkedReportIds } from './web-client.ts';
import { waitFor } from '../queue/engines.ts';

const SECRET = 'a shared secret';

describe.each(testDialects())('dashboard [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  async function signedIn(): Promise<{ account: Account; browser: WebClient }> {
    const account = await t.createAccount();
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    return { account, browser };
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({
      '/good': VERDICT_PAGES.good,
      '/decent': VERDICT_PAGES.decent,
      '/bad': VERDICT_PAGES.bad,
      '/pricing': html(goodPage('Pricing of fresh mountain coffee, by the bag or by subscription')),
    });
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  describe('the reports list', () => {
    it('shows the same reports, in the same order, as the API for the same filters, sort and page', async () => {
      const { account, browser } = await signedIn();
      for (const path of ['/good', '/bad', '/decent', '/bad', '/pricing', '/good']) await createReport(t, account, site.url(path));
      const queries = [
        '',
        'result=bad',
        'sort_by=url&sort=asc',
        'sort_by=result&sort=desc&per_page=10&page=1',
        'search=PRICING',
        `project=${encodeURIComponent(new URL(site.origin).host)}&sort=asc`,
        'per_page=10&page=2',
      ];
      for (const query of queries) {
        const api = await listReports(t, account, query);
        const page = await browser.get(`/dashboard/reports?${query}`);
        expect(page.statusCode, query).toBe(200);
        expect(linkedReportIds(page.body), query).toEqual(api.data.map((report: { id: number }) => report.id));
      }
    });

    it('takes the filter form\'s empty "any" values as no filter', async () => {
      const { account, browser } = await signedIn();
      await createReport(t, account, site.url('/good'));
      const response = await browser.get('/dashboard/reports?search=&project=&result=&sort_by=id&sort=desc&per_page=25');
      expect(response.statusCode).toBe(200);
      expect(linkedReportIds(response.body)).toHaveLength(1);
    });

    it('answers an invalid filter with a 422 page naming the parameter and its allowed values', async () => {
      const { browser } = await signedIn();
      const response = await browser.get('/dashboard/reports?per_page=20');
      expect(response.statusCode).toBe(422);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('The per_page must be one of: 10, 25, 50, 100.');
    });

    it('shows only the account\'s own reports, and links every row to its page', async () => {
      const { account, browser } = await signedIn();
      const mine = await createReport(t, account, site.url('/good'));
      const stranger = await t.createAccount('stranger');
      const theirs = await createReport(t, stranger, site.url('/good'));
      const ids = linkedReportIds((await browser.get('/dashboard/reports')).body);
      expect(ids).toEqual([mine.id]);
      expect(ids).not.toContain(theirs.id);
    });

    it('escapes what the URL holds and has no inline script or style', async () => {
      const { account, browser } = await signedIn();
      await createReport(t, account, `${site.url('/good')}?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E`);
      const response = await browser.get('/dashboard/reports');
      expect(response.body).not.toContain('<script>alert(1)');
      expectNoInlineCode(response.body);
    });
  });

  describe('creating a report with the form', () => {
    it('analyses the page and lands on the new report (303)', async () => {
      const { account, browser } = await signedIn();
      const form = await browser.get('/dashboard/reports/new');
      expect(form.body).toContain('<label for="url">Page URL</label>');
      expect(form.body).toContain('data-progress="Fetching the page…|');
      expect(form.body).toMatch(/<script src="\/assets\/report-forms\.js\?v=[0-9a-f]+" defer><\/script>/);
      const response = await browser.post('/dashboard/reports', { url: site.url('/pricing'), privacy: 2, password: SECRET });
      expect(response.statusCode).toBe(303);
      const id = Number(/^\/reports\/(\d+)$/.exec(String(response.headers.location))?.[1]);
      const report = await showReport(t, account, id);
      expect(report).toMatchObject({ url: site.url('/pricing'), privacy: 2, password: true });
      expect((await browser.get(`/reports/${id}`)).body).toContain('subscription');
    });

    it('shows why a page could not be analysed, keeps the URL and privacy, never the password', async () => {
      const { account, browser } = await signedIn();
      await browser.get('/dashboard/reports/new');
      const unreachable = await refusedUrl('/nothing');
      const response = await browser.post('/dashboard/reports', { url: unreachable, privacy: 2, password: SECRET });
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain('The page could not be analysed');
      expect(response.body).toContain(`value="${unreachable}"`);
      expect(response.body).toMatch(/id="privacy-2" name="privacy" value="2" checked/);
      expect(response.body).not.toContain(SECRET);
      expect(response.body).toMatch(/<input id="url"[^>]*aria-invalid="true"/);
      expect((await listReports(t, account)).meta.total).toBe(0);
    });

    it('asks for a password when privacy is Password and none was given', async () => {
      const { browser } = await signedIn();
      await browser.get('/dashboard/reports/new');
      const response = await browser.post('/dashboard/reports', { url: site.url('/good'), privacy: 2, password: '' });
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain('The password field is required when privacy is 2 (password).');
    });

    it('names an invalid field as the API would', async () => {
      const { browser } = await signedIn();
      await browser.get('/dashboard/reports/new');
      const response = await browser.post('/dashboard/reports', { url: site.url('/good'), privacy: 7 });
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain('The privacy must be one of: 0, 1, 2.');
    });
  });

  describe('analysing in the background', () => {
    const REFRESH = /<meta http-equiv="refresh" content="\d+">/;

    it('queues from the form; the report, its manage page and the list show the state and refresh until done', async () => {
      const { account, browser } = await signedIn();
      const gate = holdGate();
      site.route('/held', gate.hold(html(goodPage())));
      await browser.get('/dashboard/reports/new');
      const response = await browser.post('/dashboard/reports', { url: site.url('/held'), privacy: 0, async: 1 });
      expect(response.statusCode, response.body).toBe(303);
      const id = Number(/^\/reports\/(\d+)$/.exec(String(response.headers.location))?.[1]);
      await waitFor(async () => (await showReport(t, account, id)).state === 'running', 'the analysis to start');

      const waiting = await browser.get(`/reports/${id}`);
      expect(waiting.statusCode).toBe(200);
      expect(waiting.body).toMatch(REFRESH);
      expect(waiting.body).toContain('The page is being analysed; this page refreshes itself.');
      expect(waiting.body).toContain('No analysis has succeeded yet.');
      expect((await browser.get(`/dashboard/reports/${id}`)).body).toMatch(REFRESH);
      const list = await browser.get('/dashboard/reports');
      expect(list.body).toMatch(REFRESH);
      expect(list.body).toContain('<span class="state-chip state-chip--running">Analysing</span>');
      expect(linkedReportIds((await browser.get('/dashboard/reports?state=running')).body)).toEqual([id]);
      expect(linkedReportIds((await browser.get('/dashboard/reports?state=done')).body)).toEqual([]);

      gate.release();
      await waitFor(async () => (await showReport(t, account, id)).state === 'done', 'the analysis to finish');
      const done = await browser.get(`/reports/${id}`);
      expect(done.body).not.toMatch(REFRESH);
      expect(done.body).toContain('The page as fetched');
      expect((await browser.get('/dashboard/reports')).body).not.toMatch(REFRESH);
    });

    it('shows why a background analysis failed', async () => {
      const { account, browser } = await signedIn();
      await browser.get('/dashboard/reports/new');
      const response = await browser.post('/dashboard/reports', { url: await refusedUrl(), privacy: 0, async: 1 });
      const id = Number(/^\/reports\/(\d+)$/.exec(String(response.headers.location))?.[1]);
      await waitFor(async () => (await showReport(t, account, id)).state === 'failed', 'the analysis to fail');
      const body = (await browser.get(`/reports/${id}`)).body;
      expect(body).toContain('The latest analysis failed: The page could not be analysed:');
      expect(body).not.toMatch(REFRESH);
      expect((await browser.get('/dashboard/reports')).body).toContain('<span class="state-chip state-chip--failed">Failed</span>');
    });
  });

  describe('managing a report', () => {
    it('changes privacy through the form', async () => {
      const { account, browser } = await signedIn();
      const report = await createReport(t, account, site.url('/good'));
      const page = await browser.get(`/dashboard/reports/${report.id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`/reports/${report.id}`);
      const response = await browser.post(`/dashboard/reports/${report.id}/privacy`, { privacy: 2, password: SECRET });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/dashboard/reports/${report.id}?notice=privacy-saved`);
      expect(await showReport(t, account, report.id)).toMatchObject({ privacy: 2, password: true });
      expect((await browser.get(String(response.headers.location))).body).toContain('Privacy saved.');

      const toPrivate = await browser.post(`/dashboard/reports/${report.id}/privacy`, { privacy: 1, password: '' });
      expect(toPrivate.statusCode).toBe(303);
      expect(await showReport(t, account, report.id)).toMatchObject({ privacy: 1, password: false });
    });

    it('explains a refused privacy change on the same page', async () => {
      const { account, browser } = await signedIn();
      const report = await createReport(t, account, site.url('/good'));
      await browser.get(`/dashboard/reports/${report.id}`);
      const response = await browser.post(`/dashboard/reports/${report.id}/privacy`, { privacy: 2, password: '' });
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain('The password field is required to make this report password-protected.');
      expect(await showReport(t, account, report.id)).toMatchObject({ privacy: 0 });
    });

    it('analyses the page again and lands on the report; a failed fetch leaves it as it was', async () => {
      const { account, browser } = await signedIn();
      const own = await startSite({ '/': html(goodPage()) });
      try {
        const report = await createReport(t, account, own.url('/'));
        await browser.get(`/dashboard/reports/${report.id}`);
        const response = await browser.post(`/dashboard/reports/${report.id}/regenerate`);
        expect(response.statusCode).toBe(303);
        expect(response.headers.location).toBe(`/reports/${report.id}`);
        const regenerated = await showReport(t, account, report.id);
        expect(regenerated.generated_at > report.generated_at).toBe(true);

        await own.close();
        const failed = await browser.post(`/dashboard/reports/${report.id}/regenerate`);
        expect(failed.statusCode).toBe(422);
        expect(failed.body).toContain('The report is unchanged.');
        expect(await showReport(t, account, report.id)).toEqual(regenerated);
      } finally {
        await own.close();
      }
    });

    it('deletes after a confirmation page', async () => {
      const { account, browser } = await signedIn();
      const report = await createReport(t, account, site.url('/good'));
      const confirm = await browser.get(`/dashboard/reports/${report.id}/delete`);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain(`Delete report #${report.id}?`);
      expect(confirm.body).toContain(`action="/dashboard/reports/${report.id}/delete"`);
      expect(await showReport(t, account, report.id)).toBeTruthy();

      const response = await browser.post(`/dashboard/reports/${report.id}/delete`);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/dashboard/reports?notice=report-deleted');
      expect((await browser.get(String(response.headers.location))).body).toContain('The report was deleted.');
      expect((await browser.get(`/reports/${report.id}`)).statusCode).toBe(404);
    });

    it('treats another account\'s report as not there, and changes nothing of it', async () => {
      const { browser } = await signedIn();
      const stranger = await t.createAccount('stranger');
      const theirs = await createReport(t, stranger, site.url('/good'));
      await browser.get('/dashboard/reports');
      for (const path of [`/dashboard/reports/${theirs.id}`, `/dashboard/reports/${theirs.id}/delete`]) {
        expect((await browser.get(path)).statusCode, path).toBe(404);
      }
      expect((await browser.post(`/dashboard/reports/${theirs.id}/delete`)).statusCode).toBe(404);
      expect((await browser.post(`/dashboard/reports/${theirs.id}/privacy`, { privacy: 0 })).statusCode).toBe(404);
      expect((await browser.post(`/dashboard/reports/${theirs.id}/regenerate`)).statusCode).toBe(404);
      expect(await showReport(t, stranger, theirs.id)).toEqual(theirs);
    });
  });

  describe('CSRF', () => {
    it('refuses every dashboard form without a valid token, and nothing changes', async () => {
      const { account, browser } = await signedIn();
      const report = await createReport(t, account, site.url('/good'));
      const project = encodeURIComponent(report.project);
      await browser.get('/dashboard/reports');
      const forms: [string, Record<string, string | number>][] = [
        ['/dashboard/reports', { url: site.url('/bad') }],
        [`/dashboard/reports/${report.id}/privacy`, { privacy: 1 }],
        [`/dashboard/reports/${report.id}/regenerate`, {}],
        [`/dashboard/reports/${report.id}/schedule`, { schedule: 'weekly' }],
        [`/dashboard/reports/${report.id}/delete`, {}],
        [`/dashboard/projects/${project}/delete`, {}],
        ['/sign-out', {}],
      ];
      for (const [path, fields] of forms) {
        const missing = await browser.post(path, fields, { csrf: false });
        expect(missing.statusCode, path).toBe(403);
        expect(missing.body).toContain('This form has expired');
        expect((await browser.post(path, { ...fields, _csrf: 'not-a-token' })).statusCode, path).toBe(403);
      }
      expect(await showReport(t, account, report.id)).toEqual(report);
      expect((await listReports(t, account)).meta.total).toBe(1);
      expect((await browser.get('/dashboard/reports')).statusCode).toBe(200);
    });
  });

  describe('projects', () => {
    it('lists projects and deletes one with all of its reports after a confirmation page', async () => {
      const { account, browser } = await signedIn();
      const first = await createReport(t, account, site.url('/good'));
      await createReport(t, account, site.url('/bad'));
      const list = await browser.get('/dashboard/projects');
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain(first.project);
      expect(list.body).toContain(`href="/dashboard/reports?project=${encodeURIComponent(first.project)}"`);

      const path = `/dashboard/projects/${encodeURIComponent(first.project)}/delete`;
      const confirm = await browser.get(path);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain('Its 2 reports will be deleted with it');
      const response = await browser.post(path);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/dashboard/projects?notice=project-deleted');
      expect((await listReports(t, account)).meta.total).toBe(0);
      expect((await browser.get(path)).statusCode).toBe(404);
    });

    it('searches and sorts with the API\'s parameters', async () => {
      const { browser } = await signedIn();
      const response = await browser.get('/dashboard/projects?search=&sort_by=project&sort=asc&per_page=10');
      expect(response.statusCode).toBe(200);
      expect((await browser.get('/dashboard/projects?sort_by=name')).statusCode).toBe(422);
    });
  });
});
