// Dashboard sign-in with an API key: the session cookie's flags, what is (not) stored in it, wrong
// keys, CSRF on the form, signing out, and a revoked key ending its sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite } from '../support/site-server.ts';
import { WebClient, setCookieLine } from './web-client.ts';

const WEEK_SECONDS = 7 * 24 * 60 * 60;

describe.each(testDialects())('dashboard sign-in [%s]', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends a browser that is not signed in to the sign-in page', async () => {
    for (const path of ['/dashboard/reports', '/dashboard/reports/new', '/dashboard/projects', '/dashboard/reports/1']) {
      const response = await new WebClient(t.app).get(path);
      expect(response.statusCode, path).toBe(303);
      expect(response.headers.location).toBe('/sign-in');
    }
    const root = await new WebClient(t.app).get('/');
    expect(root.headers.location).toBe('/dashboard/reports');
  });

  it('sends a form posted without a session to sign in, changing nothing', async () => {
    const owner = await t.createAccount();
    const site = await startSite({ '/': html(goodPage()) });
    try {
      const report = await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 0 });
      const stranger = new WebClient(t.app);
      for (const path of [`/dashboard/reports/${report.id}/delete`, `/dashboard/reports/${report.id}/privacy`, '/dashboard/reports']) {
        const response = await stranger.post(path, { privacy: 1, url: site.url('/') });
        expect(response.statusCode, path).toBe(303);
        expect(response.headers.location).toBe('/sign-in');
      }
      expect(await t.app.services.reports.show(owner.organization, report.id)).toMatchObject({ privacy: 0 });
      expect((await t.app.services.lists.reports(owner.organization, { sortBy: 'id', sort: 'asc', page: 1, perPage: 10 })).total).toBe(1);
    } finally {
      await site.close();
    }
  });

  it('shows a labelled form with a CSRF token and no robots indexing', async () => {
    const response = await new WebClient(t.app).get('/sign-in');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<label for="api-key">API key</label>');
    expect(response.body).toMatch(/<input id="api-key" name="api_key" type="password"/);
    expect(response.body).toMatch(/name="_csrf" value="[^"]+"/);
    expect(response.body).toContain('<meta name="robots" content="noindex">');
    const csrfCookie = setCookieLine(response, 'pagegrade_csrf') ?? '';
    expect(csrfCookie).toMatch(/; HttpOnly/i);
    expect(csrfCookie).toMatch(/; SameSite=Lax/i);
  });

  it('signs in with a valid key: a random HttpOnly, SameSite=Lax session cookie for a week, never the key', async () => {
    const account = await t.createAccount();
    const browser = new WebClient(t.app);
    await browser.get('/sign-in');
    const response = await browser.post('/sign-in', { api_key: account.key });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/dashboard/reports');
    const line = setCookieLine(response, 'pagegrade_session') ?? '';
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; SameSite=Lax/i);
    expect(line).toContain('; Path=/');
    const maxAge = Number(/Max-Age=(\d+)/i.exec(line)?.[1]);
    expect(maxAge).toBeGreaterThan(WEEK_SECONDS - 60);
    expect(maxAge).toBeLessThanOrEqual(WEEK_SECONDS);
    expect(line).not.toContain(account.key);
    expect(line).not.toContain(account.key.slice(3, 20));

    const dashboard = await browser.get('/dashboard/reports');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.body).toContain(account.email);
    expect(dashboard.body).not.toContain(account.key);
    expect((await browser.get('/sign-in')).headers.location).toBe('/dashboard/reports');
  });

  it('refuses a wrong key with a message, sets no session and does not show the key back', async () => {
    const browser = new WebClient(t.app);
    await browser.get('/sign-in');
    const response = await browser.post('/sign-in', { api_key: 'pg_not-a-real-key-at-all' });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('That API key is not valid, or it has been revoked.');
    expect(response.body).not.toContain('pg_not-a-real-key-at-all');
    expect(setCookieLine(response, 'pagegrade_session')).toBeUndefined();
  });

  it('refuses the sign-in form without a valid CSRF token', async () => {
    const account = await t.createAccount();
    const browser = new WebClient(t.app);
    await browser.get('/sign-in');
    const response = await browser.post('/sign-in', { api_key: account.key }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('This form has expired');
    expect(setCookieLine(response, 'pagegrade_session')).toBeUndefined();
    // A token from another browser's cookie does not fit this browser's secret.
    const other = new WebClient(t.app);
    await other.get('/sign-in');
    const crossed = await browser.post('/sign-in', { api_key: account.key, _csrf: other.csrf ?? '' });
    expect(crossed.statusCode).toBe(403);
  });

  it('signs out: the session ends on the server, so the old cookie opens nothing', async () => {
    const account = await t.createAccount();
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    const stolen = browser.cookies.get('pagegrade_session')?.value ?? '';
    await browser.get('/dashboard/reports');
    const response = await browser.post('/sign-out');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/sign-in?notice=signed-out');
    expect(browser.cookies.has('pagegrade_session')).toBe(false);
    expect((await browser.get('/sign-in?notice=signed-out')).body).toContain('You have signed out.');

    const replay = await t.app.inject({ method: 'GET', url: '/dashboard/reports', headers: { cookie: `pagegrade_session=${stolen}` } });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe('/sign-in');
  });

  it('refuses sign-out without a CSRF token, staying signed in', async () => {
    const account = await t.createAccount();
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    expect((await browser.post('/sign-out', {}, { csrf: false })).statusCode).toBe(403);
    expect((await browser.get('/dashboard/reports')).statusCode).toBe(200);
  });

  it('ends the sessions of a key when the key is revoked', async () => {
    const account = await t.createAccount();
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    expect((await browser.get('/dashboard/reports')).statusCode).toBe(200);
    expect(await t.app.services.accounts.revokeKey(account.key)).toBe(true);
    const after = await browser.get('/dashboard/reports');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/sign-in');
    expect(browser.cookies.has('pagegrade_session')).toBe(false);
  });

  it('ignores a session cookie that is not one of ours', async () => {
    for (const value of ['x', 'A'.repeat(43), '']) {
      const response = await t.app.inject({ method: 'GET', url: '/dashboard/reports', headers: { cookie: `pagegrade_session=${value}` } });
      expect(response.statusCode).toBe(303);
    }
  });
});
