// /reports/{id}.pdf through real routing, without a browser: the same access as the page (not found,
// private, the password form and its cookie), 422 when the server has no Chromium, the per-address
// limit, and, with a stand-in printer in place of Chromium, what the route hands it (a page that
// needs nothing from outside) and the headers of its answer. test/browser/report-pdf.test.ts prints for real.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient, setCookieLine } from './web-client.ts';
import type { PdfOptions } from '../../src/render/print-pdf.ts';
import { FAKE_PDF, installStandInPrinter } from '../support/stand-in-printer.ts';

const SECRET = 'correct horse battery staple';
const NO_CHROMIUM = '/nonexistent/chromium';
const NO_BROWSER_SENTENCE = 'PDFs are not available on this server: it has no browser (PAGEGRADE_CHROMIUM_PATH).';

describe.each(testDialects())('report PDF route [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;
  let publicId: number;
  let privateId: number;
  let passwordId: number;

  async function createReport(path: string, privacy: 0 | 1 | 2, password?: string): Promise<number> {
    return (await t.app.services.reports.create(owner.organization, { url: site.url(path), privacy, password })).id;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { chromiumPath: NO_CHROMIUM, workers: 0 });
    site = await startSite({
      '/public': html(goodPage('A public page about fresh mountain coffee')),
      '/private': html(goodPage('A private page about secret coffee plans')),
      '/password': html(goodPage('A password page about coffee prices')),
    });
    owner = await t.createAccount('owner');
    publicId = await createReport('/public', 0);
    privateId = await createReport('/private', 1);
    passwordId = await createReport('/password', 2, SECRET);
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('says clearly that this server has no browser: 422, an HTML page, the page\'s security headers', async () => {
    const response = await new WebClient(t.app, '10.1.0.1').get(`/reports/${publicId}.pdf`);
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain(NO_BROWSER_SENTENCE);
    expect(response.body).toContain(`href="/reports/${publicId}"`);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('is its own route: /reports/{id}.pdf never reaches the HTML page with id "{id}.pdf"', async () => {
    const client = new WebClient(t.app, '10.1.0.2');
    const page = await client.get(`/reports/${publicId}`);
    expect(page.statusCode).toBe(200);
    // Without a browser the page offers no PDF.
    expect(page.body).not.toContain('.pdf"');
    const pdf = await client.get(`/reports/${publicId}.pdf`);
    expect(pdf.statusCode).toBe(422);
    expect(pdf.body).not.toContain('fresh mountain coffee');
  });

  it('answers a missing, malformed or private report with exactly the page\'s not-found answer', async () => {
    const stranger = new WebClient(t.app, '10.1.0.3');
    const reference = await stranger.get('/reports/99999999');
    expect(reference.statusCode).toBe(404);
    for (const path of ['/reports/99999999.pdf', `/reports/${privateId}.pdf`, '/reports/abc.pdf', '/reports/.pdf', '/reports/1.5.pdf']) {
      const response = await stranger.get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.body, path).toBe(reference.body);
    }
  });

  it('lets the owner of a private report past the access check (then: no browser)', async () => {
    const browser = new WebClient(t.app, '10.1.0.4');
    await browser.signIn(owner.key);
    const response = await browser.get(`/reports/${privateId}.pdf`);
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain(NO_BROWSER_SENTENCE);
  });

  it('asks for the password of a protected report as the page does, and one unlock opens the page and the PDF', async () => {
    const otherId = await createReport('/password', 2, SECRET);
    const browser = new WebClient(t.app, '10.1.0.5');
    const form = await browser.get(`/reports/${passwordId}.pdf`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Password-protected report');
    expect(form.body).toContain(`action="/reports/${passwordId}/unlock"`);
    expect(form.body).not.toContain('coffee prices');

    const unlocked = await browser.post(`/reports/${passwordId}/unlock`, { password: SECRET });
    expect(unlocked.statusCode).toBe(303);
    // One cookie, of a path that covers both /reports/N and /reports/N.pdf.
    expect(unlocked.cookies).toEqual([expect.objectContaining({ name: `pagegrade_unlock_report_${passwordId}`, path: '/reports/' })]);
    const page = await browser.get(`/reports/${passwordId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('coffee prices');
    const pdf = await browser.get(`/reports/${passwordId}.pdf`);
    expect(pdf.statusCode).toBe(422);
    expect(pdf.body).toContain(NO_BROWSER_SENTENCE);
    // The cookie reaches another report's pages too, but does not open them, even with the same password.
    expect((await browser.get(`/reports/${otherId}`)).body).toContain('Password-protected report');
    expect((await browser.get(`/reports/${otherId}.pdf`)).body).toContain('Password-protected report');
    // Another browser still gets the form.
    expect((await new WebClient(t.app, '10.1.0.6').get(`/reports/${passwordId}.pdf`)).body).toContain('Password-protected report');
  });

  it('limits PDFs to 10 a minute from one address, with a page that says when to try again', async () => {
    const client = new WebClient(t.app, '10.1.0.7');
    for (let i = 0; i < 10; i += 1) expect((await client.get(`/reports/${publicId}.pdf`)).statusCode).toBe(422);
    const refused = await client.get(`/reports/${publicId}.pdf`);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.body).toMatch(/PDFs are limited to 10 a minute from one address; try again in \d+ s\./);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Only PDFs count: the page itself, and another address, are unaffected.
    expect((await client.get(`/reports/${publicId}`)).statusCode).toBe(200);
    expect((await new WebClient(t.app, '10.1.0.8').get(`/reports/${publicId}.pdf`)).statusCode).toBe(422);
  });

  describe('with a stand-in printer in place of Chromium', () => {
    let printed: ReturnType<typeof installStandInPrinter>;

    beforeAll(() => {
      printed = installStandInPrinter(t.app);
    });

    it('is offered on the report page, and not on a run\'s page', async () => {
      const client = new WebClient(t.app, '10.1.0.8');
      expect((await client.get(`/reports/${publicId}`)).body).toContain(`<a href="/reports/${publicId}.pdf" type="application/pdf">Download as PDF</a>`);
      const [run] = (await t.app.services.lists.runs(owner.organization, publicId, { page: 1, perPage: 1 })).items;
      expect((await client.get(`/reports/${publicId}/runs/${run.id}`)).body).not.toContain('.pdf"');
    });

    it('answers the PDF inline with a file name, never cached', async () => {
      const response = await new WebClient(t.app, '10.1.0.9').get(`/reports/${publicId}.pdf`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`inline; filename="127.0.0.1-seo-report-${publicId}.pdf"`);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.rawPayload.equals(FAKE_PDF)).toBe(true);
    });

    it('hands the printer the report page made to need nothing from outside', async () => {
      printed.length = 0;
      await new WebClient(t.app, '10.1.0.10').get(`/reports/${publicId}.pdf`);
      expect(printed).toHaveLength(1);
      const { html: page, options } = printed[0];
      expect(page).toContain('fresh mountain coffee');
      expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`);
      // The stylesheets are in the page (the screen's and, for print media, print.css), nothing is linked or run.
      expect(page).toContain('<style media="print">');
      expect(page).toMatch(/<style>[^<]*--text:/);
      expect(page).not.toMatch(/<link\b/i);
      expect(page).not.toMatch(/<script\b/i);
      expect(page).not.toMatch(/\s(src|href)="\/\//);
      expect(page).not.toMatch(/<img\b[^>]*\ssrc="(?!data:)/);
      expect(options.brandName).toBe('pagegrade');
      expect(options.title).toBe(`SEO report · ${site.url('/public')}`);
      const report = await t.app.services.reports.show(owner.organization, publicId);
      const day = new Date(report.generated_at!).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
      expect(options.dateLabel).toContain(day);
    });

    it('reads the stylesheets from the server once, not again for each PDF', async () => {
      const inject = vi.spyOn(t.app, 'inject');
      // inject's overloads leave its calls untyped: each is [options or URL, ...].
      const assetReads = () =>
        (inject.mock.calls as unknown as [unknown][]).filter(([request]) => typeof request === 'object' && String((request as { url?: unknown }).url).startsWith('/assets/')).length;
      try {
        printed.length = 0;
        const client = new WebClient(t.app, '10.1.0.14');
        await client.get(`/reports/${publicId}.pdf`);
        const afterFirst = assetReads();
        await client.get(`/reports/${publicId}.pdf`);
        expect(assetReads()).toBe(afterFirst);
        // The second PDF still has them inline.
        expect(printed).toHaveLength(2);
        expect(printed[1].html).toContain('<style media="print">');
        expect(printed[1].html).toBe(printed[0].html);
      } finally {
        inject.mockRestore();
      }
    });

    it('prints the same for the owner as for anyone: no owner bar, no manage button', async () => {
      printed.length = 0;
      const browser = new WebClient(t.app, '10.1.0.11');
      await browser.signIn(owner.key);
      expect((await browser.get(`/reports/${privateId}.pdf`)).statusCode).toBe(200);
      expect(printed[0].html).toContain('secret coffee plans');
      expect(printed[0].html).not.toContain('Manage this report');
    });

    it('answers 409 with the page that says so while a report has no analysis yet', async () => {
      const queued = await t.app.services.reports.create(owner.organization, { url: site.url('/public'), privacy: 0, background: true });
      printed.length = 0;
      const response = await new WebClient(t.app, '10.1.0.12').get(`/reports/${queued.id}.pdf`);
      expect(response.statusCode).toBe(409);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('No analysis has succeeded yet.');
      expect(printed).toHaveLength(0);
    });

    it('says the PDF could not be made when printing fails (503), without the error\'s text', async () => {
      const working = t.app.services.rendering.pdf;
      Object.assign(t.app.services.rendering, { pdf: async () => Promise.reject(new Error('Target crashed: secret detail')) });
      try {
        const response = await new WebClient(t.app, '10.1.0.13').get(`/reports/${publicId}.pdf`);
        expect(response.statusCode).toBe(503);
        expect(response.body).toContain('The PDF could not be made');
        expect(response.body).not.toContain('secret detail');
      } finally {
        Object.assign(t.app.services.rendering, { pdf: working });
      }
    });
  });
});

describe('report PDF of a white-labelled server, stand-in printer', () => {
  let t: TestApp;
  let site: Site;
  const printed: string[] = [];
  const brandOptions: PdfOptions[] = [];

  beforeAll(async () => {
    t = await startTestApp('sqlite', { chromiumPath: NO_CHROMIUM, workers: 0, brand: { name: 'Acme Audits', logoPath: undefined, color: '#0b7a75' } });
    Object.assign(t.app.services.rendering, {
      pdf: async (page: string, options: PdfOptions) => {
        printed.push(page);
        brandOptions.push(options);
        return Buffer.from('%PDF-1.7\n');
      },
    });
    site = await startSite({ '/': html(goodPage()) });
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('names the brand in the footer and puts its colour in the page, inline', async () => {
    const owner = await t.createAccount();
    const report = await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 0 });
    expect((await new WebClient(t.app).get(`/reports/${report.id}.pdf`)).statusCode).toBe(200);
    expect(brandOptions[0].brandName).toBe('Acme Audits');
    expect(printed[0]).toContain('#0b7a75');
    expect(printed[0]).toContain('Acme Audits');
    expect(printed[0]).not.toMatch(/<link\b/i);
  });
});
