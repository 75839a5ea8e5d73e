// /reports/{id}.pdf printed by the server's real Chromium: a report with many failed checks becomes a
// paginated PDF whose first page is its summary (score, grade and why, categories, what to fix first)
// and whose every other page but the last is full, numbered and dated (each page drawn to a PNG by
// pdf.js and checked for ink), in fewer pages than a card per check made; no heading ends a page with
// a line or less after it, and every bullet stands on its item's first line; a PDF's browser context
// reaches nothing on the network; a browser printing the page itself gets the same pages without
// navigation, forms or buttons; a white-labelled server prints its brand and logo. PNGs land in
// test-output/pdf-pages for a person to look at.
// Without /usr/bin/chromium these tests say so and skip, unless PAGEGRADE_REQUIRE_BROWSER=1 (CI).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { allChecks } from '../../src/checks/index.ts';
import { BAD_PAGE, VERDICT_PAGES } from '../support/api-fixtures.ts';
import { chromiumInstalled, launchTestBrowser, whenChromiumMissing } from '../support/chromium.ts';
import { pdfPageCount, readPdfPages, type PdfPage } from '../support/pdf-pages.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';

const PAGES_OUT = join(import.meta.dirname, '../../test-output/pdf-pages');
const BROWSER_TEST_MS = 90_000;
/** A page but the last whose body ends above this (fraction of its height) is half empty. */
const FULL_PAGE_BOTTOM = 0.75;
/**
 * The report of BAD_PAGE (two runs) printed in 14 pages when every check was a card of its full length;
 * it prints in 11 since passed checks are table rows and what a failed one measured is a paragraph.
 */
const MOST_PAGES = 12;
/** A4 in points, and the 18 mm margins holding the running header and footer. */
const PAGE_HEIGHT = 842;
const MARGIN = (18 / 25.4) * 72;

interface Line {
  /** Baseline, from the bottom of the page (PDF space). */
  y: number;
  text: string;
}

interface PageText {
  /** The body's lines (header and footer left out), top to bottom. */
  lines: Line[];
  /** Every bullet, and whether text starts on its baseline to its right (the item's first line). */
  bullets: { y: number; besideText: boolean }[];
}

/** Each page's lines and bullets, from where pdf.js finds the text. */
async function pageTexts(bytes: Uint8Array): Promise<PageText[]> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: PageText[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const content = await (await document.getPage(number)).getTextContent();
      const items = content.items
        .flatMap((item) => ('str' in item && item.str.trim() !== '' ? [{ text: item.str, x: item.transform[4], y: item.transform[5] }] : []))
        .filter((item) => item.y > MARGIN && item.y < PAGE_HEIGHT - MARGIN);
      const lines: Line[] = [];
      // Items of one line share a baseline, give or take a badge's padding.
      for (const item of [...items].sort((a, b) => b.y - a.y || a.x - b.x)) {
        const line = lines.find((candidate) => Math.abs(candidate.y - item.y) < 3);
        if (line) line.text += ` ${item.text}`;
        else lines.push({ y: item.y, text: item.text });
      }
      const bullets = items
        .filter((item) => item.text.trim() === '•')
        .map((bullet) => ({
          y: bullet.y,
          besideText: items.some((item) => item !== bullet && item.x > bullet.x && item.x < bullet.x + 30 && Math.abs(item.y - bullet.y) < 1.5),
        }));
      pages.push({ lines: lines.map((line) => ({ ...line, text: words(line.text).trim() })), bullets });
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

/** The start of a check's card as printed: its badges, or its title. */
const CHECK_TITLES = new Set(allChecks.flatMap((check) => [check.title, check.failureTitle]));
function startsCard(text: string): boolean {
  return CHECK_TITLES.has(text) || text.startsWith('✗ Failed');
}

/** Any heading as printed: a card's start, a section of a card, a category or a part of the report. */
const HEADINGS = new Set(['SEO', 'Performance', 'Security', 'Miscellaneous', 'The page as fetched', 'Score over time', 'What changed since the previous run', 'Fix these first']);
function isHeading(text: string): boolean {
  return startsCard(text) || HEADINGS.has(text) || /^(WHAT WAS FOUND|MEASURED|WHY IT MATTERS|HOW TO FIX)\b/.test(text);
}

/** The PDF of a report over HTTP, as a browser or curl gets it. */
async function fetchPdf(base: string, id: number): Promise<{ response: Response; bytes: Uint8Array }> {
  const response = await fetch(`${base}/reports/${id}.pdf`);
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** A page's text as a reader reads it: its items' spacing collapsed, ligatures ("ﬁ") as letters. */
function words(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ');
}

/** Whether `text` holds `phrase`, spaces aside: pdf.js may split a word where a ligature was ("fi rst"). */
function holds(text: string, phrase: string): boolean {
  const squeeze = (value: string) => value.normalize('NFKC').replace(/\s+/g, '');
  return squeeze(text).includes(squeeze(phrase));
}

function savePages(name: string, pages: PdfPage[]): void {
  mkdirSync(PAGES_OUT, { recursive: true });
  // A longer PDF of an earlier run would leave its last pages behind, read as this one's.
  for (const file of readdirSync(PAGES_OUT)) if (file.startsWith(`${name}-`)) rmSync(join(PAGES_OUT, file));
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
    reportId = (await t.app.services.reports.create(owner.organization, { url: site.url('/bad'), privacy: 0 })).id;
    // A second run: the page then has its history, with the form comparing runs.
    await t.app.services.reports.update(owner.organization, reportId, { regenerate: true });
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
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.length).toBeLessThanOrEqual(MOST_PAGES);
    const report = await t.app.services.reports.show(owner.organization, reportId);
    const day = new Date(report.generated_at!).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    pages.forEach((page, index) => {
      const label = `page ${index + 1} of ${pages.length}`;
      expect(page.text, label).toContain(`Page ${index + 1} of ${pages.length}`);
      expect(page.text, label).toContain(`pagegrade · Report of ${day}`);
      expect(page.text, label).toContain(site.url('/bad'));
      // The last page may hold the last few lines; the others are full.
      expect(page.inkShare, `${label}: blank`).toBeGreaterThan(index < pages.length - 1 ? 0.02 : 0.002);
      // The first page is the summary, on a page of its own.
      if (index > 0 && index < pages.length - 1) expect(page.lowestInk, `${label}: half empty`).toBeGreaterThan(FULL_PAGE_BOTTOM);
    });
    // Page 1 summarises: the score, the grade, the category scores and what to fix first, no check's card.
    const first = words(pages[0].text);
    expect(first).toMatch(new RegExp(`\\b${report.score} / 100\\b`));
    for (const expected of ['Bad', 'SCORE BY CATEGORY', 'SEO', 'Performance', 'Security', 'Miscellaneous', 'Fix these first', 'points']) {
      expect(holds(first, expected), `${expected} in ${first}`).toBe(true);
    }
    expect(first).not.toContain('WHAT WAS FOUND');
    expect(words(pages[1].text)).toMatch(/What changed since the previous run|Score over time/);
    const all = pages.map((page) => page.text).join(' ');
    expect(all).toContain('The page as fetched');
    // The page's own header keeps the brand; its navigation, forms and buttons are not on paper.
    expect(pages[0].text).toContain('pagegrade');
    expect(all).not.toContain('Sign in');
    expect(all).not.toContain('Compare the two runs in full');

    // Passed checks are rows of a table, not cards; a long group of findings shows its first ten.
    expect(holds(all, 'Result Check Importance ✓ Passed')).toBe(true);
    expect(words(all)).toMatch(/✓ Passed [^✓✗]+ (High|Medium|Low)/);

    // The only request the server saw was the PDF's; the analysed site saw none.
    expect(appRequests).toEqual([`/reports/${reportId}.pdf`]);
    expect(site.requests.length).toBe(siteRequestsBefore);
  }, BROWSER_TEST_MS);

  it('never ends a page on a heading, nor on a card\'s start and a line, and puts every bullet on its item\'s first line', async () => {
    const pages = await pageTexts((await fetchPdf(base, reportId)).bytes);
    pages.slice(0, -1).forEach(({ lines }, index) => {
      const last = lines.slice(-3).map((line) => line.text);
      expect(isHeading(last.at(-1)!), `the end of page ${index + 1}: ${JSON.stringify(last)}`).toBe(false);
      // A card that breaks leaves its badges, its title and more than a line of what it found.
      expect(last.filter(startsCard), `the end of page ${index + 1}: ${JSON.stringify(last)}`).toEqual([]);
    });
    const bullets = pages.flatMap((page) => page.bullets);
    expect(bullets.length).toBeGreaterThan(20);
    expect(bullets.filter((bullet) => !bullet.besideText)).toEqual([]);
  }, BROWSER_TEST_MS);

  it('says on the first page why the grade is not the score\'s', async () => {
    site.route('/hidden', VERDICT_PAGES.decent);
    const id = (await t.app.services.reports.create(owner.organization, { url: site.url('/hidden'), privacy: 0 })).id;
    const pages = await readPdfPages((await fetchPdf(base, id)).bytes);
    savePages('decent', pages);
    const first = words(pages[0].text);
    for (const expected of ['Decent', 'At most decent whatever the score: the page asks not to be indexed, so search engines will not index it.', 'Fix these first']) {
      expect(holds(first, expected), `${expected} in ${first}`).toBe(true);
    }
  }, BROWSER_TEST_MS);

  it('reaches nothing on the network from a PDF\'s browser context, whatever the page names', async () => {
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
    const id = (await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 0 })).id;
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
