// The dashboard lists' Download CSV links and the score sort: the link carries the list's filters and
// sort (not its page), and answers the signed-in account the same file the API's format=csv gives for
// its key; without a session the browser goes to sign in, as on every dashboard page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { VERDICT_PAGES, call, createReport, listReports, type Account } from '../support/api-fixtures.ts';
import { startSite, type Site } from '../support/site-server.ts';
import { csvObjects } from '../support/csv.ts';
import { WebClient, linkedReportIds } from './web-client.ts';

/** The href of the page's Download CSV link, its &amp; read back. */
function downloadHref(page: string): string {
  const match = /<a class="button" href="([^"]+)" download>Download CSV<\/a>/.exec(page);
  expect(match, 'a Download CSV link').not.toBeNull();
  return match![1].replaceAll('&amp;', '&');
}

describe.each(testDialects())('dashboard CSV downloads [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let account: Account;
  let browser: WebClient;
  let project: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/good': VERDICT_PAGES.good, '/decent': VERDICT_PAGES.decent, '/bad': VERDICT_PAGES.bad });
    project = new URL(site.origin).host;
    account = await t.createAccount('downloader');
    for (const path of ['/good', '/bad', '/decent', '/bad', '/good']) await createReport(t, account, site.url(path));
    // Another account's report on the same host never shows up.
    await createReport(t, await t.createAccount('stranger'), site.url('/good'));
    browser = new WebClient(t.app);
    await browser.signIn(account.key);
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('the reports list links to the CSV of its filters and sort, which is the API\'s file for them', async () => {
    const query = `search=${encodeURIComponent(site.origin)}&project=${encodeURIComponent(project)}&sort_by=score&sort=asc&per_page=10&page=1`;
    const page = await browser.get(`/dashboard/reports?${query}`);
    expect(page.statusCode).toBe(200);
    const href = downloadHref(page.body);
    const params = new URL(href, 'http://x').searchParams;
    expect(new URL(href, 'http://x').pathname).toBe('/dashboard/reports.csv');
    expect(Object.fromEntries(params)).toEqual({ search: site.origin, project, sort_by: 'score', sort: 'asc' });

    const download = await browser.get(href);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(download.headers['content-disposition']).toBe('attachment; filename="reports.csv"');
    const api = await call(t, account, 'GET', `/api/v1/reports?${params}&format=csv`);
    expect(download.body).toBe(api.body);
    const { rows } = csvObjects(download.body);
    const listed = await listReports(t, account, `${params}`);
    expect(rows.map((row) => Number(row.id))).toEqual(listed.data.map((report: { id: number }) => report.id));
    expect(rows).toHaveLength(5);
  });

  it('offers score as a sort of the reports list, in the same order as the API', async () => {
    const page = await browser.get('/dashboard/reports?sort_by=score&sort=desc');
    expect(page.body).toContain('<option value="score" selected>Score</option>');
    const api = await listReports(t, account, 'sort_by=score&sort=desc');
    expect(linkedReportIds(page.body)).toEqual(api.data.map((report: { id: number }) => report.id));
  });

  it('the projects list links to the CSV of its search and sort, the API\'s file for them', async () => {
    const page = await browser.get('/dashboard/projects?sort_by=project&sort=asc&per_page=25');
    const href = downloadHref(page.body);
    expect(href).toBe('/dashboard/projects.csv?sort_by=project&sort=asc');
    const download = await browser.get(href);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(download.headers['content-disposition']).toBe('attachment; filename="projects.csv"');
    expect(download.body).toBe((await call(t, account, 'GET', '/api/v1/projects?sort_by=project&sort=asc&format=csv')).body);
    expect(csvObjects(download.body).rows).toEqual([expect.objectContaining({ project, reports_count: '5' })]);
  });

  it('takes the filter form\'s empty values as no filter', async () => {
    const download = await browser.get('/dashboard/reports.csv?search=&project=&result=&state=');
    expect(download.statusCode).toBe(200);
    expect(csvObjects(download.body).rows).toHaveLength(5);
  });

  it.each(['/dashboard/reports.csv', '/dashboard/projects.csv'])('%s without a session sends the browser to sign in', async (path) => {
    const anonymous = new WebClient(t.app);
    const response = await anonymous.get(path);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/sign-in');
    expect(response.headers['content-type'] ?? '').not.toMatch(/csv/);
    // An API key is not a session.
    const withKey = await t.app.inject({ method: 'GET', url: path, headers: account.auth });
    expect(withKey.statusCode).toBe(303);
  });

  it('answers an invalid sort with the 422 page, not a file', async () => {
    const response = await browser.get('/dashboard/reports.csv?sort_by=title');
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('The sort_by must be one of: id, generated_at, url, result, score.');
  });
});
