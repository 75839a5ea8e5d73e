// The new-crawl form's further settings on the dashboard (docs/crawls.md, "Scope and request headers"):
// folded under "More settings", each field labelled; a crawl started with them shows them on its page,
// the request headers by name only. A header's value (a staging site's session, a password) is never
// shown: not on the crawl's page, not on the form shown again after an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import type { Account } from '../support/api-fixtures.ts';
import { showCrawl } from '../support/crawl-fixtures.ts';
import { html, linkingPage, startSite, type Handler, type Site } from '../support/site-server.ts';
import { waitFor } from '../queue/engines.ts';
import { WebClient, expectLabelledInputs, expectUniqueIds } from './web-client.ts';

const SECRET = 'secret-value';

/** The form's fields as a person fills them in, a crawl of the shop with a staging session. */
function shopSettings(site: Site): Record<string, string | number> {
  return {
    url: site.url('/shop/'),
    max_pages: 5,
    max_depth: 2,
    sitemap: 0,
    privacy: 0,
    external: 1,
    include: '/shop/**',
    exclude: '/shop/cart',
    strip_params: 'utm_*',
    user_agent: 'googlebot_desktop',
    headers: `Cookie: s=${SECRET}`,
    schedule: 'off',
  };
}

describe('the new-crawl form\'s further settings', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;
  let browser: WebClient;
  /** The Cookie header of each request the site answered, by path. */
  const cookies = new Map<string, string | undefined>();

  const page = (title: string, links: string[]): Handler => {
    const answer = html(linkingPage(title, links));
    return (request, response) => {
      cookies.set(request.url ?? '', request.headers.cookie);
      answer(request, response);
    };
  };

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    site = await startSite({
      '/shop/': page('The mountain coffee shop', ['/shop/beans', '/shop/cart', '/about']),
      '/shop/beans': page('Mountain coffee beans', ['/shop/']),
    });
    account = await t.createAccount('owner');
    browser = new WebClient(t.app);
    await browser.signIn(account.key);
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('folds the settings away, each field labelled, external links checked by default', async () => {
    const form = await browser.get('/dashboard/crawls/new');
    expect(form.statusCode).toBe(200);
    const more = /<details class="form-more">([\s\S]*?)<\/details>/.exec(form.body)?.[1];
    expect(more, 'a closed "More settings" part').toBeDefined();
    expect(more).toMatch(/<summary>More settings[^<]*<\/summary>/);
    expect(more).toMatch(/<input id="external" name="external" type="checkbox" value="1" checked/);
    for (const field of ['include', 'exclude', 'headers', 'urls']) expect(more).toMatch(new RegExp(`<textarea id="${field}" name="${field}"[^>]*></textarea>`));
    expect(more).toMatch(/<input id="strip_params" name="strip_params" type="text"[^>]* value=""/);
    expect(more).toMatch(/<input id="schedule" name="schedule" type="text"[^>]* value="off"/);
    const select = /<select id="user_agent" name="user_agent"[^>]*>([\s\S]*?)<\/select>/.exec(more!)?.[1] ?? '';
    expect([...select.matchAll(/<option value="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'default',
      'desktop',
      'mobile',
      'googlebot_smartphone',
      'googlebot_desktop',
    ]);
    expect(select).toContain('<option value="default" selected>');
    expectUniqueIds(form.body);
    expectLabelledInputs(form.body);
  });

  it('starts a crawl with them: its page shows the settings and the header by name, never its value', async () => {
    await browser.get('/dashboard/crawls/new');
    const started = await browser.post('/dashboard/crawls', shopSettings(site));
    expect(started.statusCode, started.body).toBe(303);
    const id = Number(/^\/dashboard\/crawls\/(\d+)$/.exec(String(started.headers.location))?.[1]);
    expect(await showCrawl(t, account, id)).toMatchObject({
      include: ['/shop/**'],
      exclude: ['/shop/cart'],
      strip_params: ['utm_*'],
      user_agent: 'googlebot_desktop',
      header_names: ['Cookie'],
      external: 1,
      schedule: 'off',
    });
    // The headers are the crawl's: the site gets the session.
    await waitFor(() => cookies.has('/shop/'), 'the crawl to fetch its start page');
    expect(cookies.get('/shop/')).toBe(`s=${SECRET}`);

    const shown = await browser.get(`/dashboard/crawls/${id}`);
    expect(shown.statusCode).toBe(200);
    const settings = /<dl class="crawl-settings">([\s\S]*?)<\/dl>/.exec(shown.body)?.[1] ?? '';
    expect(settings).toContain('<dt>Only</dt><dd><code>/shop/**</code></dd>');
    expect(settings).toContain('<dt>Never</dt><dd><code>/shop/cart</code></dd>');
    expect(settings).toContain('<dt>Parameters ignored</dt><dd><code>utm_*</code></dd>');
    expect(settings).toContain('<dt>User agent</dt><dd>Googlebot desktop</dd>');
    expect(settings).toMatch(/<dt>Request headers<\/dt><dd><code>Cookie<\/code> /);
    expect(settings).toMatch(/<dt>External links<\/dt><dd>\d+ checked<\/dd>/);
    expect(settings).not.toContain('<dt>Schedule</dt>');
    expect(shown.body).not.toContain(SECRET);
  });

  it('audits exactly the URLs of the box, the start URL left empty (list mode)', async () => {
    await browser.get('/dashboard/crawls/new');
    const started = await browser.post('/dashboard/crawls', { ...shopSettings(site), url: '', include: '', exclude: '', headers: '', urls: `${site.url('/shop/beans')}\r\n${site.url('/about')}\r\n` });
    expect(started.statusCode, started.body).toBe(303);
    const id = Number(/^\/dashboard\/crawls\/(\d+)$/.exec(String(started.headers.location))?.[1]);
    expect(await showCrawl(t, account, id)).toMatchObject({ mode: 'list', url: site.url('/shop/beans'), sitemap: 0 });
    const shown = await browser.get(`/dashboard/crawls/${id}`);
    expect(shown.body).toContain('<dt>Pages</dt><dd>The URLs listed;');
  });

  it('shows a bad list again with its error', async () => {
    await browser.get('/dashboard/crawls/new');
    const refused = await browser.post('/dashboard/crawls', { ...shopSettings(site), url: '', headers: '', urls: 'ftp://example.com/file' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/<p class="field-error" id="urls-error">The urls entry 1 [^<]*must use http or https[^<]*<\/p>/);
    expect(refused.body).toMatch(/<textarea id="urls" name="urls"[^>]* aria-invalid="true">ftp:\/\/example.com\/file<\/textarea>/);
  });

  it('shows the form again after an error with every setting but the header values', async () => {
    await browser.get('/dashboard/crawls/new');
    const refused = await browser.post('/dashboard/crawls', { ...shopSettings(site), include: 'shop' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/<p class="field-error" id="include-error">The include pattern &quot;shop&quot; must start with \/ or \*[^<]*<\/p>/);
    expect(refused.body).toMatch(/<textarea id="include" name="include"[^>]* aria-invalid="true">shop<\/textarea>/);
    // Opened, so the error is seen; the other settings as they were typed.
    expect(refused.body).toContain('<details class="form-more" open>');
    expect(refused.body).toMatch(/<textarea id="exclude" name="exclude"[^>]*>\/shop\/cart<\/textarea>/);
    expect(refused.body).toMatch(/<input id="strip_params" name="strip_params"[^>]* value="utm_\*"/);
    expect(refused.body).toContain('<option value="googlebot_desktop" selected>');
    expect(refused.body).toMatch(/<input id="external" name="external" type="checkbox" value="1" checked/);
    // The headers come back empty: typed again, never shown.
    expect(refused.body).toMatch(/<textarea id="headers" name="headers"[^>]*><\/textarea>/);
    expect(refused.body).not.toContain(SECRET);
  });

  it('never shows a header value in the error about the headers either', async () => {
    await browser.get('/dashboard/crawls/new');
    const refused = await browser.post('/dashboard/crawls', { ...shopSettings(site), headers: `Cookie s=${SECRET}` });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/<p class="field-error" id="headers-error">[^<]+<\/p>/);
    expect(refused.body).toMatch(/<textarea id="headers" name="headers"[^>]* aria-invalid="true"><\/textarea>/);
    expect(refused.body).not.toContain(SECRET);
  });
});
