// /s/{token} and /s/{token}.pdf through real routing (docs/organisations.md, "Share links"): a private
// report's page opens to anyone with the link, as a public report's does for a visitor (no dashboard
// controls), never cached, indexed or referred; a crawl's page read-only, without a form; the PDF as
// /reports/{id}.pdf makes it (422 without a browser; with a stand-in printer, the PDF, under the one
// limit per address); and the Not found page for an unknown, revoked, expired or deleted link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/database.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, type Account } from '../support/api-fixtures.ts';
import { startCrawl, untilCrawlEnded } from '../support/crawl-fixtures.ts';
import { goodPage, html, linkingPage, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectNoInlineCode, expectUniqueIds } from './web-client.ts';
import { FAKE_PDF, installStandInPrinter } from '../support/stand-in-printer.ts';

const NO_CHROMIUM = '/nonexistent/chromium';
const NO_BROWSER_SENTENCE = 'PDFs are not available on this server: it has no browser (PAGEGRADE_CHROMIUM_PATH).';

describe.each(testDialects())('share pages [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let handle: DbHandle;
  let owner: Account;
  let privateId: number;
  /** The token of a link to the private report. */
  let token: string;
  /** The Not found page of a path no route knows. */
  let notFound: string;

  async function shareLink(path: string, account: Account = owner): Promise<string> {
    const response = await call(t, account, 'POST', `/api/v1/${path}/shares`, {});
    expect(response.statusCode, response.body).toBe(201);
    return body(response).data.token;
  }

  function expectSharePageHeaders(response: { headers: Record<string, unknown> }): void {
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-robots-tag']).toBe('noindex');
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { chromiumPath: NO_CHROMIUM });
    site = await startSite({
      '/private': html(goodPage('A private page about secret coffee plans')),
      '/': html(linkingPage('Home of the mountain coffee roastery', ['/a', '/b'])),
      '/a': html(linkingPage('Where the mountain coffee grows', ['/'])),
      '/b': html(linkingPage('How the mountain coffee is roasted', ['/'])),
    });
    handle = createDb(t.config.databaseUrl);
    owner = await t.createAccount('owner');
    privateId = (await t.app.services.reports.create(owner.organization, { url: site.url('/private'), privacy: 1 })).id;
    // A second run, so the page has its history.
    await t.app.services.reports.update(owner.organization, privateId, { regenerate: true });
    token = await shareLink(`reports/${privateId}`);
    notFound = (await new WebClient(t.app).get('/reports/99999999')).body;
  });
  afterAll(async () => {
    await handle?.destroy();
    await site?.close();
    await t?.close();
  });

  it('opens a private report to anyone with the link, without sign-in, as a visitor sees a public report', async () => {
    const visitor = new WebClient(t.app, '10.2.0.1');
    // Without the link the report is hidden.
    expect((await visitor.get(`/reports/${privateId}`)).statusCode).toBe(404);
    const page = await visitor.get(`/s/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expectSharePageHeaders(page);
    expect(page.body).toContain('<meta name="robots" content="noindex">');
    expect(page.body).toContain('secret coffee plans');
    expect(page.body).toContain('Score over time');
    expect(page.body).toContain('<a href="/sign-in">Sign in</a>');
    // No controls of the dashboard, and no PDF without a browser.
    expect(page.body).not.toContain('Manage this report');
    expect(page.body).not.toContain('/dashboard/reports/');
    expect(page.body).not.toContain('.pdf"');
    expectNoInlineCode(page.body);
    expectUniqueIds(page.body);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('shows the owner, signed in, the same page: the link never brings the dashboard\'s controls', async () => {
    const browser = new WebClient(t.app, '10.2.0.2');
    await browser.signIn(owner.key);
    const page = await browser.get(`/s/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('secret coffee plans');
    expect(page.body).not.toContain('Manage this report');
    expect(page.body).not.toContain('sign-out');
  });

  it('answers an unknown, malformed, revoked, expired or deleted link with the Not found page, page and PDF alike', async () => {
    const visitor = new WebClient(t.app, '10.2.0.3');
    const revoked = await shareLink(`reports/${privateId}`);
    expect((await call(t, owner, 'DELETE', `/api/v1/reports/${privateId}/shares/${revoked.slice(0, 8)}`)).statusCode).toBe(200);
    const expired = await shareLink(`reports/${privateId}`);
    await handle.db.updateTable('share_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('prefix', '=', expired.slice(0, 8)).execute();
    const doomedId = (await t.app.services.reports.create(owner.organization, { url: site.url('/private'), privacy: 0 })).id;
    const deleted = await shareLink(`reports/${doomedId}`);
    expect((await visitor.get(`/s/${deleted}`)).statusCode).toBe(200);
    expect((await call(t, owner, 'DELETE', `/api/v1/reports/${doomedId}`)).statusCode).toBe(200);

    const unknown = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [unknown, revoked, expired, deleted, token.slice(0, 8), 'not-a-token', 'a'.repeat(150), 'a'.repeat(1500)]) {
      for (const path of [`/s/${bad}`, `/s/${bad}.pdf`]) {
        const response = await visitor.get(path);
        expect(response.statusCode, path).toBe(404);
        expect(response.body, path).toBe(notFound);
      }
    }
    // The link that was never touched still opens.
    expect((await visitor.get(`/s/${token}`)).statusCode).toBe(200);
  });

  it('says the PDF is not available without a browser, as /reports/{id}.pdf does, leading back to the share page', async () => {
    const response = await new WebClient(t.app, '10.2.0.4').get(`/s/${token}.pdf`);
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expectSharePageHeaders(response);
    expect(response.body).toContain(NO_BROWSER_SENTENCE);
    expect(response.body).toContain(`href="/s/${token}"`);
    expect(response.body).not.toContain(`/reports/${privateId}`);
  });

  it('shows a crawl read-only: start URL, state, site score, issues and pages, without a form or a way into the dashboard', async () => {
    const crawl = await startCrawl(t, owner, { url: site.url('/'), max_pages: 3 });
    const ended = await untilCrawlEnded(t, owner, crawl.id);
    expect(ended.state).toBe('done');
    const crawlToken = await shareLink(`crawls/${crawl.id}`);
    for (const visitor of [new WebClient(t.app, '10.2.0.5'), await signedIn()]) {
      const page = await visitor.get(`/s/${crawlToken}`);
      expect(page.statusCode).toBe(200);
      expectSharePageHeaders(page);
      expect(page.body).toContain('<meta name="robots" content="noindex">');
      expect(page.body).toContain('Site audit');
      expect(page.body).toContain(`href="${site.url('/')}"`);
      expect(page.body).toContain('Done');
      expect(page.body).toContain(`${ended.score}/100`);
      expect(page.body).toContain('<h2 id="issues-heading">Site issues</h2>');
      expect(page.body).toContain('<h2 id="pages-heading">Pages</h2>');
      for (const path of ['/a', '/b']) expect(page.body).toContain(`href="${site.url(path)}"`);
      expect(page.body).toMatch(/<span class="verdict-chip verdict-chip--(good|decent|bad)">\d+ · /);
      expect(page.body).not.toMatch(/<form\b/i);
      // Nothing of the dashboard but, for a signed-in visitor, the header's way to their own reports.
      expect(page.body.replace('<a href="/dashboard/reports">Your reports</a>', '')).not.toContain('/dashboard');
      expect(page.body).not.toMatch(/href="\/reports\//);
      expect(page.body).not.toContain('.csv');
      expectNoInlineCode(page.body);
      expectUniqueIds(page.body);
    }
    // Paged as the dashboard's table is, by links that stay on the share page.
    const firstPage = await new WebClient(t.app, '10.2.0.6').get(`/s/${crawlToken}?per_page=10&page=1`);
    expect(firstPage.statusCode).toBe(200);
    expect(firstPage.body).toContain('Showing 1–');
    expect((await new WebClient(t.app, '10.2.0.6').get(`/s/${crawlToken}?per_page=7`)).statusCode).toBe(422);
    // A crawl has no PDF.
    const pdf = await new WebClient(t.app, '10.2.0.6').get(`/s/${crawlToken}.pdf`);
    expect(pdf.statusCode).toBe(404);
    expect(pdf.body).toBe(notFound);
    // Deleted with its crawl.
    expect((await call(t, owner, 'DELETE', `/api/v1/crawls/${crawl.id}`)).statusCode).toBe(200);
    expect((await new WebClient(t.app, '10.2.0.6').get(`/s/${crawlToken}`)).body).toBe(notFound);
  });

  async function signedIn(): Promise<WebClient> {
    const browser = new WebClient(t.app, '10.2.0.7');
    await browser.signIn(owner.key);
    return browser;
  }

  describe('with a stand-in printer in place of Chromium', () => {
    let printed: ReturnType<typeof installStandInPrinter>;

    beforeAll(() => {
      printed = installStandInPrinter(t.app);
    });

    it('offers the PDF on the share page and prints the report as /reports/{id}.pdf does', async () => {
      const client = new WebClient(t.app, '10.2.0.8');
      const page = await client.get(`/s/${token}`);
      expect(page.body).toContain(`<a href="/s/${token}.pdf" type="application/pdf">Download as PDF</a>`);
      printed.length = 0;
      const response = await client.get(`/s/${token}.pdf`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`inline; filename="127.0.0.1-seo-report-${privateId}.pdf"`);
      expect(response.headers['cache-control']).toContain('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.rawPayload.equals(FAKE_PDF)).toBe(true);
      expect(printed).toHaveLength(1);
      expect(printed[0].html).toContain('secret coffee plans');
      expect(printed[0].html).not.toContain('Manage this report');
      expect(printed[0].options.title).toBe(`SEO report · ${site.url('/private')}`);
    });

    it('counts share PDFs and report PDFs against the one limit of 10 a minute per address', async () => {
      const publicId = (await t.app.services.reports.create(owner.organization, { url: site.url('/private'), privacy: 0 })).id;
      const client = new WebClient(t.app, '10.2.0.9');
      for (let i = 0; i < 5; i += 1) expect((await client.get(`/s/${token}.pdf`)).statusCode).toBe(200);
      for (let i = 0; i < 5; i += 1) expect((await client.get(`/reports/${publicId}.pdf`)).statusCode).toBe(200);
      for (const path of [`/s/${token}.pdf`, `/reports/${publicId}.pdf`]) {
        const refused = await client.get(path);
        expect(refused.statusCode, path).toBe(429);
        expect(refused.body).toMatch(/PDFs are limited to 10 a minute from one address; try again in \d+ s\./);
      }
      // The pages are not counted, nor is another address.
      expect((await client.get(`/s/${token}`)).statusCode).toBe(200);
      expect((await new WebClient(t.app, '10.2.0.10').get(`/s/${token}.pdf`)).statusCode).toBe(200);
    });
  });
});
