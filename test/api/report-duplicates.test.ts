// The same URL twice (docs/api.md, "Reports"): a create of a URL the account already has a report of
// still makes a new report, and its answer's duplicate_of names the newest earlier one (null when
// there is none), in the 201 and the async 202 alike; show and list answers do not carry it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { body, call, listReports, showReport, type Body } from '../support/api-fixtures.ts';

describe.each(testDialects())('duplicate_of in create answers [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
    site = await startSite({ '/': html(goodPage()), '/other': html(goodPage('Another page about coffee')) });
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  async function created(account: Awaited<ReturnType<TestApp['createAccount']>>, fields: Record<string, string | number>): Promise<Body> {
    const response = await call(t, account, 'POST', '/api/v1/reports', fields);
    expect([201, 202], response.body).toContain(response.statusCode);
    return body(response).data;
  }

  it('names the newest earlier report of the same normalised URL; a new report is made each time', async () => {
    const account = await t.createAccount('dup');
    const first = await created(account, { url: site.url('/') });
    expect(first.duplicate_of).toBeNull();
    // Every field show has, and duplicate_of.
    const shown = await showReport(t, account, first.id);
    expect(Object.keys(first).sort()).toEqual([...Object.keys(shown), 'duplicate_of'].sort());
    // Another page of the same site is another URL.
    expect((await created(account, { url: site.url('/other') })).duplicate_of).toBeNull();
    // The same URL written otherwise (upper-case scheme and host, a fragment) is the same URL.
    const written = site.url('/').replace('http://127.0.0.1', 'HTTP://127.0.0.1') + '#pricing';
    const second = await created(account, { url: written });
    expect(second.id).not.toBe(first.id);
    expect(second.url).toBe(site.url('/'));
    expect(second.duplicate_of).toBe(first.id);
    // The newest earlier one, also when it was made in the background.
    const third = await created(account, { url: site.url('/'), async: 1 });
    expect(third).toMatchObject({ state: 'queued', duplicate_of: second.id });
    expect((await created(account, { url: site.url('/') })).duplicate_of).toBe(third.id);
    expect((await listReports(t, account)).meta.total).toBe(5);
  });

  it('counts only the account\'s own reports, and only the ones still there', async () => {
    const owner = await t.createAccount('dup-owner');
    const stranger = await t.createAccount('dup-stranger');
    const kept = await created(owner, { url: site.url('/') });
    expect((await created(stranger, { url: site.url('/') })).duplicate_of).toBeNull();
    const deleted = await created(owner, { url: site.url('/') });
    expect((await call(t, owner, 'DELETE', `/api/v1/reports/${deleted.id}`)).statusCode).toBe(200);
    expect((await created(owner, { url: site.url('/') })).duplicate_of).toBe(kept.id);
  });

  it('is in create answers only: show and list answers have no duplicate_of', async () => {
    const account = await t.createAccount('dup-show');
    await created(account, { url: site.url('/') });
    const again = await created(account, { url: site.url('/') });
    expect(await showReport(t, account, again.id)).not.toHaveProperty('duplicate_of');
    for (const item of (await listReports(t, account)).data) expect(item).not.toHaveProperty('duplicate_of');
  });
});
