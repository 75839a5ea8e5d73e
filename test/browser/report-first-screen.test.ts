// The report page's first screen, a white-labelled report and the dashboard's list on a phone, in
// Debian's Chromium: what a client sees before scrolling (the ring, a gauge per category, what to fix
// first), the brand's colour and logo actually applied, and no sideways scrolling at 375 px. Screenshots
// land in test-output/screenshots for a person to look at. Without /usr/bin/chromium these tests skip,
// unless PAGEGRADE_REQUIRE_BROWSER=1 (CI).
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { chromiumInstalled, launchTestBrowser, whenChromiumMissing } from '../support/chromium.ts';
import { html, startSite, type Site } from '../support/site-server.ts';

const SCREENSHOTS = join(import.meta.dirname, '../../test-output/screenshots');
const BROWSER_TEST_MS = 60_000;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
/** A 1×1 PNG: the smallest logo a browser decodes. */
const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const BRAND_COLOR = '#0b7a75';

/** A page that fails checks of every importance, with a long title and URL to wrap. */
const POOR_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Roastery price list, opening hours and wholesale conditions for cafés</title></head>
<body><h1>Roastery</h1><center>Welcome</center>
${Array.from({ length: 7 }, (_, i) => `<img src="/photo-${i}.png">`).join('\n')}
<a href="/more">click here</a></body></html>`;
const LONG_PATH = '/shop/coffee/single-origin/ethiopia-yirgacheffe-washed-heirloom-light-roast-whole-bean-250g';

whenChromiumMissing('the report first screen in Chromium');

describe.runIf(chromiumInstalled)('the report first screen in Chromium', () => {
  let plain: TestApp;
  let branded: TestApp;
  let site: Site;
  let browser: Browser;
  let directory: string;
  let plainBase: string;
  let brandedBase: string;
  let ownerKey: string;
  let plainReportId: number;
  let brandedReportId: number;

  async function open(base: string, path: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await (await browser.newContext({ viewport })).newPage();
    await page.goto(`${base}${path}`);
    return page;
  }

  /** True when the element's top is inside the first viewport, without scrolling. */
  async function inFirstScreen(page: Page, selector: string): Promise<boolean> {
    const box = await page.locator(selector).first().boundingBox();
    return box !== null && box.y >= 0 && box.y + Math.min(box.height, 40) <= (page.viewportSize()?.height ?? 0);
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    directory = await mkdtemp(join(tmpdir(), 'pagegrade-first-screen-'));
    const logoPath = join(directory, 'logo.png');
    await writeFile(logoPath, LOGO_PNG);
    site = await startSite({ [LONG_PATH]: html(POOR_PAGE), '/poor': html(POOR_PAGE) });
    plain = await startTestApp('sqlite');
    branded = await startTestApp('sqlite', { brand: { name: 'Acme SEO Partners', logoPath, color: BRAND_COLOR } });
    plainBase = await plain.app.listen({ port: 0, host: '127.0.0.1' });
    brandedBase = await branded.app.listen({ port: 0, host: '127.0.0.1' });
    const owner = await plain.createAccount('owner');
    ownerKey = owner.key;
    plainReportId = (await plain.app.services.reports.create(owner.organization, { url: site.url(LONG_PATH), privacy: 0 })).id;
    // Enough reports with long URLs to fill the list.
    for (let i = 0; i < 4; i += 1) await plain.app.services.reports.create(owner.organization, { url: site.url(`/poor?variant=${i}-${'x'.repeat(60)}`), privacy: 0 });
    const agency = await branded.createAccount('agency');
    brandedReportId = (await branded.app.services.reports.create(agency.organization, { url: site.url('/poor'), privacy: 0 })).id;
    browser = await launchTestBrowser();
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await plain?.close();
    await branded?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('shows the title, the score ring, a gauge per category and what to fix first in the first desktop screen', async () => {
    const page = await open(plainBase, `/reports/${plainReportId}`, DESKTOP);
    await page.screenshot({ path: join(SCREENSHOTS, 'report-first-screen.png') });
    expect(await page.locator('h1').textContent()).toBe('Roastery price list, opening hours and wholesale conditions for cafés');
    for (const selector of ['h1', '.report-url', '.score-ring', '.gauges', '#fix-first-heading', '.fixes li']) {
      expect(await inFirstScreen(page, selector), selector).toBe(true);
    }
    expect(await page.locator('.gauge').count()).toBe(4);
    // Every gauge sits in the first screen too, not only the first.
    for (let i = 0; i < 4; i += 1) expect(await inFirstScreen(page, `.gauge >> nth=${i}`), `gauge ${i}`).toBe(true);
    expect(await page.locator('.fixes li').count()).toBe(5);
    // The headline wraps between words: no line of it is wider than the column.
    const overflow = await page.locator('h1').evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // A "Fix these first" link leads to its check's details further down.
    const target = await page.locator('.fix-title').first().getAttribute('href');
    expect(await page.locator(target ?? '#none').count()).toBe(1);
  }, BROWSER_TEST_MS);

  it('wears the brand: its colour on the header, its logo loaded, its name in header and footer', async () => {
    const page = await open(brandedBase, `/reports/${brandedReportId}`, DESKTOP);
    await page.screenshot({ path: join(SCREENSHOTS, 'report-white-label.png') });
    const [red, green, blue] = [1, 3, 5].map((offset) => Number.parseInt(BRAND_COLOR.slice(offset, offset + 2), 16));
    const headerColour = await page.locator('.site-header').evaluate((element) => getComputedStyle(element).borderTopColor);
    expect(headerColour).toBe(`rgb(${red}, ${green}, ${blue})`);
    const linkColour = await page.locator('.fix-title').first().evaluate((element) => getComputedStyle(element).color);
    expect(linkColour).toBe(`rgb(${red}, ${green}, ${blue})`);
    const logo = page.locator('img.brand-logo');
    await logo.evaluate((image: HTMLImageElement) => image.decode());
    expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('.site-header .brand-name').textContent()).toBe('Acme SEO Partners');
    expect(await page.locator('.site-footer').textContent()).toContain('Report by Acme SEO Partners.');
    expect(await page.locator('.site-header').textContent()).not.toContain('pagegrade');

    // The same app's colour is not the built-in one: an unbranded report's header differs.
    const unbranded = await open(plainBase, `/reports/${plainReportId}`, DESKTOP);
    expect(await unbranded.locator('.site-header').evaluate((element) => getComputedStyle(element).borderTopColor)).not.toBe(headerColour);
  }, BROWSER_TEST_MS);

  it('fits the dashboard list of reports on a 375 px phone: no sideways scroll, URLs cut with an ellipsis, counts as pills', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${plainBase}/sign-in`);
    await page.getByLabel('API key').fill(ownerKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${plainBase}/dashboard/reports`);
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-reports-phone.png'), fullPage: true });
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
    const urls = page.locator('.report-link .truncate');
    expect(await urls.count()).toBe(5);
    for (let i = 0; i < 5; i += 1) {
      const url = urls.nth(i);
      const text = await url.textContent();
      // One line, cut rather than wrapped, and the whole URL in its title.
      const fits = await url.evaluate((element) => ({ height: element.getBoundingClientRect().height, line: parseFloat(getComputedStyle(element).lineHeight), cut: element.scrollWidth > element.clientWidth }));
      expect(fits.height).toBeLessThanOrEqual(fits.line + 1);
      expect(fits.cut).toBe(true);
      expect(await url.getAttribute('title')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/`));
      expect(`http://${text}`.length).toBeLessThanOrEqual((await url.getAttribute('title'))?.length ?? 0);
    }
    const pills = page.locator('.pills').first();
    expect(await pills.locator('.pill').count()).toBe(3);
    expect(await pills.evaluate((element) => element.getBoundingClientRect().height)).toBeLessThan(40);
    await context.close();
  }, BROWSER_TEST_MS);
});
