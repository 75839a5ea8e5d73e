// The dashboard's report and crawl forms offer "Also render in a browser" (render=1) when the server
// has Chromium, and not when it has none; a render=1 sent anyway to a server without one comes back
// as the form with the field's message, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { body, call, type Account } from '../support/api-fixtures.ts';
import { chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { html, linkingPage, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectLabelledInputs } from './web-client.ts';

const RENDER_BOX = /<input id="render" name="render" type="checkbox" value="1"/;

let site: Site;
beforeAll(async () => {
  site = await startSite({ '/': html(linkingPage('Home of the mountain coffee roastery', [])) });
});
afterAll(() => site?.close());

async function signedIn(t: TestApp): Promise<{ account: Account; browser: WebClient }> {
  const account = await t.createAccount();
  const browser = new WebClient(t.app);
  await browser.signIn(account.key);
  return { account, browser };
}

describe('the render option on a server without Chromium', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { chromiumPath: '/nonexistent/chromium' });
  });
  afterAll(() => t?.close());

  it('is not offered, and render=1 sent anyway is refused with its message; nothing is stored', async () => {
    const { account, browser } = await signedIn(t);
    for (const form of ['/dashboard/reports/new', '/dashboard/crawls/new']) {
      const page = await browser.get(form);
      expect(page.statusCode, form).toBe(200);
      expect(page.body, form).not.toMatch(RENDER_BOX);
    }
    const report = await browser.post('/dashboard/reports', { url: site.url('/'), privacy: 0, render: 1 });
    expect(report.statusCode).toBe(422);
    expect(report.body).toContain('Rendering is not available on this server.');
    const crawl = await browser.post('/dashboard/crawls', { url: site.url('/'), max_pages: 1, max_depth: 0, render: 1 });
    expect(crawl.statusCode).toBe(422);
    expect(crawl.body).toContain('Rendering is not available on this server.');
    expect(body(await call(t, account, 'GET', '/api/v1/reports')).meta.total).toBe(0);
    expect(body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total).toBe(0);
  });
});

whenChromiumMissing('the render option on a server with Chromium');

describe.runIf(chromiumInstalled)('the render option on a server with Chromium', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t?.close());

  it('is offered on both forms, labelled, and a crawl started with it renders', async () => {
    const { account, browser } = await signedIn(t);
    for (const form of ['/dashboard/reports/new', '/dashboard/crawls/new']) {
      const page = await browser.get(form);
      expect(page.body, form).toMatch(RENDER_BOX);
      expect(page.body, form).not.toMatch(/<input id="render"[^>]* checked/);
      expectLabelledInputs(page.body);
    }
    const started = await browser.post('/dashboard/crawls', { url: site.url('/'), max_pages: 1, max_depth: 0, render: 1 });
    expect(started.statusCode).toBe(303);
    const crawls = body(await call(t, account, 'GET', '/api/v1/crawls')).data;
    expect(crawls.map((crawl: { render: number }) => crawl.render)).toEqual([1]);
    // A form sent back with an error keeps the box as it was checked.
    const invalid = await browser.post('/dashboard/crawls', { url: 'ftp://example.com/', max_pages: 1, max_depth: 0, render: 1 });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toMatch(/<input id="render"[^>]* checked/);
  });
});
