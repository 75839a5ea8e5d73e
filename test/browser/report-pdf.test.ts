// /reports/{id}.pdf printed by the server's real Chromium: a report with many failed checks becomes a
// paginated PDF whose every page but the last is full, numbered and dated (each page drawn to a PNG
// by pdf.js and checked for ink); the PDF browser reaches nothing on the network; a browser printing
// the page itself gets the same pages without navigation, forms or buttons; a white-labelled server
// prints its brand and logo. PNGs land in test-output/pdf-pages for a person to look at.
// Without /usr/bin/chromium these tests say so and skip, unless PAGEGRADE_REQUIRE_BROWSER=1 (CI).
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { BAD_PAGE } from '../support/api-fixtures.ts';
import { chromiumInstalled, launchTestBrowser, whenChromiumMissing } from '../support/chromium.ts';
import { pdfPageCount, readPdfPages, type PdfPage } from '../support/pdf-pages.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';

const PAGES_OUT = join(import.meta.dirname, '../../test-output/pdf-pages');
const BROWSER_TEST_MS = 90_000;
/** A page but the last whose body ends above this (fraction of its height) is half empty. */
const FULL_PAGE_BOTTOM = 0.75;

/** The PDF of a report over HTTP, as a browser or curl gets it. */
async function fetchPdf(base: string, id: number): Promise<{ response: Response; bytes: Uint8Array }> {
  const response = await fetch(`${base}/reports/${id}.pdf`);
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

function savePages(name: string, pages: PdfPage[]): void {
  mkdirSync(PAGES_OUT, { recursive: true });
  pages.forEach((page, index) => writeFileSync(join(PAGES_OUT, `${name}-${index + 1}.png`), page.png));
}

whenChromiumMissing('report PDFs in Chromium');

describe.runIf(chromiumInstalled)('report PDFs in Chromium', () => {
  let t: TestApp;
  let site: Site;
  let base: string;
  let browser: Browser;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;
  let reportId: number;
  /** Paths the app's HTTP server was asked for, in order. */
  const appRequests: string[] = [];

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    site = await startSite({ '/bad': html(BAD_PAGE), '/beacon.png': html('no'), '/beacon.css': html('no') });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.server.on('request', (request) => appRequests.push(request.url ?? ''));
    owner = await t.createAccount('owner');
    reportId = (await t.app.services.reports.create(owner.id, { url: site.url('/bad'), privacy: 0 })).id;
    // A second run: the page then has its history, with the form comparing runs.
    await t.app.services.reports.update(owner.id, reportId, { regenerate: true });
    browser = await launchTestBrowser();
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  it('prints a report of many failed checks on pages that are full but the last, numbered and dated', async () => {
    const siteRequestsBefore = site.requests.length;
    appRequests.length = 0;
    const { response, bytes } = await fetchPdf(base, reportId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="127.0.0.1-seo-report-${reportId}.pdf"`);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');

    const pages = await readPdfPages(bytes);
    savePages('report', pages);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const report = await t.app.services.reports.show(owner.id, reportId);
    const day = new Date(report.generated_at!).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    pages.forEach((page, index) => {
      const label = `page ${index + 1} of ${pages.length}`;
      expect(page.text, label).toContain(`Page ${index + 1} of ${pages.length}`);
      expect(page.text, label).toContain(`pagegrade · Report of ${day}`);
      expect(page.text, label).toContain(site.url('/bad'));
      expect(page.inkShare, `${label}: blank`).toBeGreaterThan(0.02);
      if (index < pages.length - 1) expect(page.lowestInk, `${label}: half empty`).toBeGreaterThan(FULL_PAGE_BOTTOM);
    });
    const all = pages.map((page) => page.text).join(' ');
    expect(all).toContain('The page as fetched');
    // The page's own header keeps the brand; its navigation, forms and buttons are not on paper.
    expect(pages[0].text).toContain('pagegrade');
    expect(all).not.toContain('Sign in');
    expect(all).not.toContain('Compare the two runs in full');

    // The only request the server saw was the PDF's; the analysed site saw none.
    expect(appRequests).toEqual([`/reports/${reportId}.pdf`]);
    expect(site.requests.length).toBe(siteRequestsBefore);
  }, BROWSER_TEST_MS);

  it('reaches nothing on the network from the PDF browser, whatever the page names', async () => {
    const before = site.requests.length;
    const beacon = site.url('/beacon.png');
    const page = `<!doctype html><html><head>
<link rel="stylesheet" href="${site.url('/beacon.css')}">
<style>@import url("${site.url('/beacon.css?import')}"); body { background: url("${beacon}?background"); }
@font-face { font-family: x; src: url("${site.url('/beacon.woff')}"); } p { font-family: x; }</style>
</head><body><p>Printed offline.</p><img src="${beacon}?img"><iframe src="${site.url('/bad')}"></iframe>
<object data="${beacon}?object"></object><video poster="${beacon}?poster"></video>
<script>fetch("${beacon}?fetch")</script></body></html>`;
    const pdf = await t.app.services.rendering.pdf!(page, { title: 'offline', dateLabel: 'today', brandName: 'test' });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await readPdfPages(pdf))[0].text).toContain('Printed offline.');
    expect(site.requests.slice(before)).toEqual([]);
  }, BROWSER_TEST_MS);

  it('prints the same pages from a browser: the print stylesheet hides navigation, forms and buttons', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // Signed in as the owner: the page then has the most to hide (the owner's bar, the sign-out form).
      await page.goto(`${base}/sign-in`);
      await page.getByLabel('API key').fill(owner.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base}/dashboard/reports`);
      await page.goto(`${base}/reports/${reportId}`);
      await page.emulateMedia({ media: 'print' });
      for (const hidden of ['.site-nav', '.site-footer', '.owner-bar', 'form', '.button', '.skip-link']) {
        const shown = await page.locator(hidden).evaluateAll((elements) => elements.filter((element) => element.getClientRects().length > 0).length);
        expect(shown, `${hidden} in print`).toBe(0);
      }
      expect(await page.locator('.brand').isVisible()).toBe(true);
      expect(await page.locator('.score-ring').isVisible()).toBe(true);

      // The same pages: print.css sets the paper and margins, so only the PDF's header and footer differ.
      const printed = await pdfPageCount(await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true }));
      const { bytes } = await fetchPdf(base, reportId);
      expect(printed).toBe(await pdfPageCount(bytes));
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);
});

describe.runIf(chromiumInstalled)('a white-labelled report PDF in Chromium', () => {
  let t: TestApp;
  let site: Site;
  let base: string;

  beforeAll(async () => {
    // A pure red logo, so its pixels can be found on the page.
    const logo = createCanvas(64, 64);
    const draw = logo.getContext('2d');
    draw.fillStyle = '#ff0000';
    draw.fillRect(0, 0, 64, 64);
    const logoPath = join(tmpdir(), `pagegrade-pdf-logo-${process.pid}.png`);
    writeFileSync(logoPath, logo.toBuffer('image/png'));
    t = await startTestApp('sqlite', { brand: { name: 'Acme Audits', logoPath, color: '#0b7a75' } });
    site = await startSite({ '/': html(goodPage()) });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('names the brand in every footer, never pagegrade, and shows its logo', async () => {
    const owner = await t.createAccount();
    const id = (await t.app.services.reports.create(owner.id, { url: site.url('/'), privacy: 0 })).id;
    const { response, bytes } = await fetchPdf(base, id);
    expect(response.status).toBe(200);
    const pages = await readPdfPages(bytes);
    savePages('white-label', pages);
    for (const page of pages) {
      expect(page.text).toContain('Acme Audits · Report of');
      expect(page.text.toLowerCase()).not.toContain('pagegrade');
    }
    const first = await loadImage(pages[0].png);
    const canvas = createCanvas(first.width, first.height);
    const context = canvas.getContext('2d');
    context.drawImage(first, 0, 0);
    const { data } = context.getImageData(0, 0, first.width, Math.round(first.height / 4));
    let red = 0;
    for (let at = 0; at < data.length; at += 4) if (data[at] > 200 && data[at + 1] < 60 && data[at + 2] < 60) red += 1;
    // The logo is drawn at 32 px high (about 16 points square at 72 dpi): far more than a few stray pixels.
    expect(red).toBeGreaterThan(100);
  }, BROWSER_TEST_MS);
});
