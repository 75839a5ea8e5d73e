// The same page twice on the dashboard: a new report of a URL the account already has a report of
// (normalised as lists compare them) is made all the same, and its page tells its owner, with a link
// to the newest earlier report and a form that analyses that one again instead. Nobody else hears of
// the owner's other reports, and another account's report of the same page is not an earlier one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient } from './web-client.ts';

/** The note of a duplicate on a report page, or undefined when there is none. */
function duplicateNote(body: string): string | undefined {
  return /<section class="notice duplicate-note"[\s\S]*?<\/section>/.exec(body)?.[0];
}

describe.each(testDialects())('a report of a page the account already has a report of [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/page': html(goodPage()), '/other': html(goodPage('Another page')) });
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  /** Creates a report through the dashboard's form and returns its id, from where the form lands. */
  async function createThroughForm(browser: WebClient, url: string): Promise<number> {
    await browser.get('/dashboard/reports/new');
    const response = await browser.post('/dashboard/reports', { url, privacy: 0 });
    expect(response.statusCode, response.body).toBe(303);
    return Number(/^\/reports\/(\d+)$/.exec(String(response.headers.location))?.[1]);
  }

  it('links the earlier report from the new one and offers to analyse the earlier one again instead', async () => {
    const owner = await t.createAccount('owner');
    const browser = new WebClient(t.app);
    await browser.signIn(owner.key);
    const first = await createThroughForm(browser, site.url('/page'));
    const unrelated = await createThroughForm(browser, site.url('/other'));
    // The same page: a fragment is not part of the URL a report keeps.
    const second = await createThroughForm(browser, `${site.url('/page')}#section`);
    expect(second).toBeGreaterThan(unrelated);

    expect(duplicateNote((await browser.get(`/reports/${first}`)).body)).toBeUndefined();
    expect(duplicateNote((await browser.get(`/reports/${unrelated}`)).body)).toBeUndefined();
    const page = await browser.get(`/reports/${second}`);
    const note = duplicateNote(page.body);
    expect(note).toBeDefined();
    expect(note).toContain(`You already have a report of this page: <a href="/reports/${first}">report #${first}</a>.`);
    expect(note).toContain(`<form method="post" action="/dashboard/reports/${first}/regenerate" class="duplicate-form">`);
    expect(note).toContain('<button type="submit" class="button">Analyse the earlier report again</button>');

    // The form analyses the earlier report again (its regenerate action) and lands on it.
    const again = await browser.post(`/dashboard/reports/${first}/regenerate`);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/reports/${first}`);
    expect((await t.app.services.reports.show(owner.organization, first)).runs_count).toBe(2);
    expect((await t.app.services.reports.show(owner.organization, second)).runs_count).toBe(1);

    // A third report of the page names the newest earlier one.
    const third = await createThroughForm(browser, site.url('/page'));
    expect(duplicateNote((await browser.get(`/reports/${third}`)).body)).toContain(`<a href="/reports/${second}">report #${second}</a>`);
  });

  it('tells only the owner, and counts only the account\'s own reports', async () => {
    const owner = await t.createAccount('owner');
    const other = await t.createAccount('other');
    await t.app.services.reports.create(other.organization, { url: site.url('/page'), privacy: 0 });
    const { id: first } = await t.app.services.reports.create(owner.organization, { url: site.url('/page'), privacy: 0 });
    const { id: second } = await t.app.services.reports.create(owner.organization, { url: site.url('/page'), privacy: 0 });

    // The owner's first report of the page duplicates nothing, though another account has one.
    const ownerBrowser = new WebClient(t.app);
    await ownerBrowser.signIn(owner.key);
    expect(duplicateNote((await ownerBrowser.get(`/reports/${first}`)).body)).toBeUndefined();
    expect(duplicateNote((await ownerBrowser.get(`/reports/${second}`)).body)).toContain(`report #${first}`);

    // Anyone else with the link (the report is public) sees the report, not the owner's others.
    const visitor = await new WebClient(t.app).get(`/reports/${second}`);
    expect(visitor.statusCode).toBe(200);
    expect(duplicateNote(visitor.body)).toBeUndefined();
    expect(visitor.body).not.toContain(`/reports/${first}"`);
    const otherBrowser = new WebClient(t.app);
    await otherBrowser.signIn(other.key);
    expect(duplicateNote((await otherBrowser.get(`/reports/${second}`)).body)).toBeUndefined();
  });
});
