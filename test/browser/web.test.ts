// The web side in a real browser: Debian's Chromium driven by playwright-core against the real app on
// a loopback port. Sign in, create a report (watching the progress message), view it, each privacy
// mode as owner, stranger and password holder, a wrong password, delete, and a page whose title is a
// <script> that must not run. Screenshots land in test-output/screenshots for a person to look at.
// Without /usr/bin/chromium these tests say so and skip, unless PAGEGRADE_REQUIRE_BROWSER=1 (CI).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumInstalled, launchTestBrowser, whenChromiumMissing } from '../support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { goodPage, html, startSite, type Handler, type Site } from '../support/site-server.ts';
import { BAD_PAGE } from '../support/api-fixtures.ts';

const SCREENSHOTS = join(import.meta.dirname, '../../test-output/screenshots');
const SECRET = 'open sesame 42';
const BROWSER_TEST_MS = 60_000;


/** A page that tries to run script through every text a report shows. */
const HOSTILE_PAGE = `<!doctype html><html lang="en"><head>
<title><script>window.__pwned = 'title'; alert('title')</script></title>
<meta name="description" content='"><img src=x onerror="window.__pwned = &#39;description&#39;">'>
</head><body><h1><img src=x onerror="window.__pwned = 'h1'"></h1>
<a href="javascript:window.__pwned='link'">click here</a></body></html>`;

whenChromiumMissing('the web side in Chromium');

describe.runIf(chromiumInstalled)('the web side in Chromium', () => {
  let t: TestApp;
  let site: Site;
  let base: string;
  let browser: Browser;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;
  /** The owner's browser, signed in once and kept. */
  let ownerContext: BrowserContext;
  let ownerPage: Page;
  const problems: string[] = [];

  /** A fresh browser (its own cookies) whose script errors and CSP violations are collected. */
  async function newPage(context?: BrowserContext): Promise<Page> {
    const page = await (context ?? (await browser.newContext())).newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // A page answered 403, 404 or 422 on purpose is logged too; failed resources are caught below.
      const pageStatus = /^Failed to load resource: the server responded with a status of/.test(message.text());
      if (message.type() === 'error' && !pageStatus) problems.push(`console: ${message.text()}`);
    });
    page.on('response', (response) => {
      const request = response.request();
      if (request.resourceType() !== 'document' && response.status() >= 400) {
        problems.push(`resource ${response.status()}: ${request.url()}`);
      }
    });
    page.on('requestfailed', (request) => {
      // A navigation cancels what the page it leaves was still loading (often the icon): not a failure.
      const error = request.failure()?.errorText;
      if (error !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${error}`);
    });
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    return page;
  }

  async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
  }

  /** Creates a report through the form and returns its id from the page it lands on. */
  async function createThroughForm(page: Page, url: string, privacy: 'Public' | 'Private' | 'Password', password?: string): Promise<number> {
    await page.goto(`${base}/dashboard/reports/new`);
    await page.getByLabel('Page URL').fill(url);
    await page.getByRole('radio', { name: new RegExp(`^${privacy}`) }).check();
    if (password !== undefined) await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Analyse the page' }).click();
    await page.waitForURL(/\/reports\/\d+$/);
    return Number(/\/reports\/(\d+)$/.exec(page.url())?.[1]);
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startTestApp('sqlite');
    site = await startSite({
      '/': html(goodPage()),
      '/bad': html(BAD_PAGE),
      '/private': html(goodPage('Private plans for the coffee roastery')),
      '/password': html(goodPage('Coffee prices for our wholesale partners')),
      '/hostile': html(HOSTILE_PAGE),
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await t.createAccount('owner');
    browser = await launchTestBrowser();
    ownerContext = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    ownerPage = await newPage(ownerContext);
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  it('signs in with an API key, reaching the dashboard', async () => {
    const page = ownerPage;
    await page.goto(`${base}/dashboard/reports`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.getByLabel('API key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/dashboard/reports`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Reports');
    expect(await page.getByText(owner.email).isVisible()).toBe(true);
    const session = (await ownerContext.cookies()).find((cookie) => cookie.name === 'pagegrade_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session?.value).not.toContain(owner.key);
  }, BROWSER_TEST_MS);

  it('creates a report, showing progress while the page is analysed, and lands on it', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Handler = (request, response) => void released.then(() => html(BAD_PAGE)(request, response));
    site.route('/slow', slow);

    // While the form's POST is pending Playwright cannot evaluate in the page, so the page reports
    // its progress line itself, through a binding, as it changes.
    const page = await newPage(ownerContext);
    const progress: { text: string; buttonDisabled: boolean }[] = [];
    let firstStepShown = () => {};
    const firstStep = new Promise<void>((resolve) => {
      firstStepShown = resolve;
    });
    await page.exposeFunction('progressChanged', (text: string, buttonDisabled: boolean) => {
      progress.push({ text, buttonDisabled });
      if (text === 'Fetching the page…') firstStepShown();
    });
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const status = document.querySelector('[data-progress-status]');
        const button = status?.closest('form')?.querySelector('button[type="submit"]') as HTMLButtonElement | null;
        if (!status || !button) return;
        const report = (window as unknown as { progressChanged(text: string, disabled: boolean): void }).progressChanged;
        new MutationObserver(() => report(status.textContent ?? '', button.disabled)).observe(status, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
    });

    await page.goto(`${base}/dashboard/reports/new`);
    await page.getByLabel('Page URL').fill(site.url('/slow'));
    await screenshot(page, 'new-report-form', false);
    const submitted = page.getByRole('button', { name: 'Analyse the page' }).click();
    // Well before the app's 5 s fetch deadline, which would turn the held page into a 422.
    let deadline: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        firstStep,
        new Promise((_resolve, reject) => {
          deadline = setTimeout(() => reject(new Error(`no progress message; saw ${JSON.stringify(progress)}`)), 3000);
        }),
      ]);
    } finally {
      clearTimeout(deadline);
    }
    expect(progress[0]).toEqual({ text: 'Fetching the page…', buttonDisabled: true });
    release();
    await submitted;

    await page.waitForURL(/\/reports\/\d+$/);
    // The headline is the page's title (or its short URL when it has none); the full URL stands under it.
    expect(await page.locator('.report-url').textContent()).toBe(site.url('/slow'));
    expect(await page.title()).toMatch(/^SEO report for 127\.0\.0\.1:\d+\/slow — \d+\/100 \(bad\) · pagegrade$/);
    expect(await page.locator('.score-ring').getAttribute('aria-label')).toMatch(/^Score \d+ out of 100$/);
    expect(await page.locator('.verdict-label').textContent()).toBe('Bad');
    await screenshot(page, 'report-page');
    await page.setViewportSize({ width: 360, height: 780 });
    await screenshot(page, 'report-page-phone', false);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1200, height: 900 });

    await page.emulateMedia({ media: 'print' });
    // On paper the brand stays; the navigation and the owner's controls go.
    expect(await page.locator('.site-nav').isVisible()).toBe(false);
    expect(await page.locator('.owner-bar').isVisible()).toBe(false);
    await screenshot(page, 'report-page-print');
    await page.pdf({ path: join(SCREENSHOTS, 'report-page.pdf'), format: 'A4' });
    await page.emulateMedia({ media: 'screen' });
  }, BROWSER_TEST_MS);

  it('lists the reports on the dashboard, on a wide screen and on a phone', async () => {
    await createThroughForm(ownerPage, site.url('/'), 'Public');
    const page = ownerPage;
    await page.goto(`${base}/dashboard/reports`);
    expect(await page.locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'dashboard-reports');
    await page.getByLabel('Result').selectOption('bad');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/result=bad/);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${base}/dashboard/reports`);
    await screenshot(page, 'dashboard-reports-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1200, height: 900 });
  }, BROWSER_TEST_MS);

  it('keeps a private report to its owner; everyone else gets the not-found page', async () => {
    const id = await createThroughForm(ownerPage, site.url('/private'), 'Private');
    expect(await ownerPage.locator('.report-url').textContent()).toContain('/private');

    const stranger = await newPage();
    const response = await stranger.goto(`${base}/reports/${id}`);
    expect(response?.status()).toBe(404);
    expect(await stranger.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    expect(await stranger.content()).not.toContain('roastery');
    expect(await stranger.title()).toBe('Not found · pagegrade');
  }, BROWSER_TEST_MS);

  it('asks for the password of a protected report: wrong, then right, for this browser session only', async () => {
    const page = ownerPage;
    await page.goto(`${base}/dashboard/reports/new`);
    const passwordField = page.locator('[data-password-field]');
    expect(await passwordField.isVisible()).toBe(false);
    await page.getByRole('radio', { name: /^Password/ }).check();
    expect(await passwordField.isVisible()).toBe(true);
    const id = await createThroughForm(page, site.url('/password'), 'Password', SECRET);
    expect(await page.content()).toContain('wholesale partners');

    const holderContext = await browser.newContext();
    const holder = await newPage(holderContext);
    await holder.goto(`${base}/reports/${id}`);
    expect(await holder.title()).toBe('Password-protected report · pagegrade');
    expect(await holder.content()).not.toContain('wholesale');
    await screenshot(holder, 'report-password-form', false);

    await holder.getByLabel('Password').fill('a wrong guess');
    await holder.getByRole('button', { name: 'Open report' }).click();
    await holder.getByRole('alert').getByText('Wrong password.').waitFor();
    expect(await holder.content()).not.toContain('wholesale');

    await holder.getByLabel('Password').fill(SECRET);
    await holder.getByRole('button', { name: 'Open report' }).click();
    await holder.waitForURL(`${base}/reports/${id}`);
    expect(await holder.content()).toContain('wholesale partners');
    await holder.reload();
    expect(await holder.content()).toContain('wholesale partners');
    // One cookie for the report's pages and its PDF, for this browser session only.
    const unlocks = (await holderContext.cookies()).filter((cookie) => cookie.name === `pagegrade_unlock_report_${id}`);
    expect(unlocks).toEqual([expect.objectContaining({ path: '/reports/', httpOnly: true, sameSite: 'Lax', expires: -1 })]);

    // Another browser session has to ask again.
    const later = await newPage();
    await later.goto(`${base}/reports/${id}`);
    expect(await later.title()).toBe('Password-protected report · pagegrade');
  }, BROWSER_TEST_MS);

  it('shows a public report to a stranger, and does not run script from the analysed page', async () => {
    const id = await createThroughForm(ownerPage, site.url('/hostile'), 'Public');
    const stranger = await newPage();
    const response = await stranger.goto(`${base}/reports/${id}`);
    expect(response?.status()).toBe(200);
    await stranger.locator('.check').first().waitFor();
    expect(await stranger.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await stranger.locator('img[src="x"]').count()).toBe(0);
    expect(await stranger.locator('a[href^="javascript:"]').count()).toBe(0);
    // The title is shown as the text it is.
    await stranger.locator('#check-title summary').click();
    await stranger.locator('#check-title').getByText("<script>window.__pwned = 'title'; alert('title')</script>").waitFor();
    await screenshot(stranger, 'report-hostile-page');
  }, BROWSER_TEST_MS);

  it('deletes a report after the confirmation page', async () => {
    const id = await createThroughForm(ownerPage, site.url('/'), 'Public');
    const page = ownerPage;
    await page.goto(`${base}/dashboard/reports/${id}`);
    await screenshot(page, 'dashboard-manage-report');
    await page.getByRole('link', { name: 'Delete this report…' }).click();
    await page.waitForURL(`${base}/dashboard/reports/${id}/delete`);
    await page.getByRole('button', { name: 'Delete the report' }).click();
    await page.waitForURL(`${base}/dashboard/reports?notice=report-deleted`);
    expect(await page.getByRole('status').textContent()).toContain('The report was deleted.');
    expect(await page.locator(`a[href="/reports/${id}"]`).count()).toBe(0);
    const gone = await page.goto(`${base}/reports/${id}`);
    expect(gone?.status()).toBe(404);
  }, BROWSER_TEST_MS);

  it('draws the score over time and what changed for a report with 3 runs, on screen and in print', async () => {
    // A page the test edits between analyses: good, then without its title, then bad.
    site.route('/history', html(goodPage()));
    const { id } = await t.app.services.reports.create(owner.organization, { url: site.url('/history'), privacy: 0 });
    site.route('/history', html(goodPage().replace(/<title>[^<]*<\/title>/, '')));
    await t.app.services.reports.update(owner.organization, id, { regenerate: true });
    site.route('/history', html(BAD_PAGE));
    await t.app.services.reports.update(owner.organization, id, { regenerate: true });

    const page = await newPage();
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.goto(`${base}/reports/${id}`);
    const chart = page.getByRole('img', { name: /^Score of the last 3 runs/ });
    expect(await chart.isVisible()).toBe(true);
    expect(await chart.locator('circle.score-chart-point').count()).toBe(3);
    const changes = page.getByRole('region', { name: 'What changed since the previous run' });
    expect(await changes.isVisible()).toBe(true);
    expect(await changes.getByText(/score down \d+/).count()).toBe(1);
    await chart.screenshot({ path: join(SCREENSHOTS, 'report-score-chart.png') });
    await changes.screenshot({ path: join(SCREENSHOTS, 'report-changes.png') });

    await page.emulateMedia({ media: 'print' });
    expect(await chart.isVisible()).toBe(true);
    expect(await changes.isVisible()).toBe(true);
    const box = await chart.boundingBox();
    // A4 is 210 mm wide, less the 14 mm margins: about 690 CSS pixels.
    expect(box?.width ?? 0).toBeLessThanOrEqual(690);
    expect(box?.width ?? 0).toBeGreaterThan(200);
    await chart.screenshot({ path: join(SCREENSHOTS, 'report-score-chart-print.png') });
    await page.pdf({ path: join(SCREENSHOTS, 'report-history.pdf'), format: 'A4' });
    await page.emulateMedia({ media: 'screen' });

    // A point opens its run; the compare form (no script) compares the first run with the latest.
    await chart.locator('a').first().click();
    await page.waitForURL(/\/reports\/\d+\/runs\/\d+$/);
    // The run is named by its number and by the id its address holds.
    const runId = /\/runs\/(\d+)$/.exec(page.url())?.[1];
    expect(await page.getByRole('note').textContent()).toContain(`Run 1 (#${runId}) of this report`);
    await page.getByRole('link', { name: 'See the latest run' }).click();
    await page.waitForURL(`${base}/reports/${id}`);
    const firstRun = await page.locator('#compare-from option', { hasText: /^Run 1 \(#\d+\) ·/ }).getAttribute('value');
    await page.getByLabel('Older run').selectOption(firstRun ?? '');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/\/compare\?from=\d+&to=\d+$/);
    expect(await page.title()).toMatch(/^Run 1 \(#\d+\) and Run 3 \(#\d+\) of the SEO report/);
    expect(await page.getByRole('heading', { name: /^Still failing/ }).isVisible()).toBe(true);
    await screenshot(page, 'report-compare');
  }, BROWSER_TEST_MS);

  it('shows the change since the previous run and the schedule on the dashboard, and sets a schedule', async () => {
    const page = ownerPage;
    await page.goto(`${base}/dashboard/reports`);
    expect(await page.getByText(/^score down \d+$/).count()).toBeGreaterThan(0);
    await screenshot(page, 'dashboard-reports-changes');
    const id = (await t.app.services.lists.reports(owner.organization, { sortBy: 'id', sort: 'desc', page: 1, perPage: 1 })).items[0].id;
    await page.goto(`${base}/dashboard/reports/${id}`);
    await page.getByLabel('Repeat').selectOption('cron');
    await page.getByLabel('Cron expression').fill('0 6 * * 1');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.waitForURL(`${base}/dashboard/reports/${id}?notice=schedule-saved`);
    expect(await page.getByRole('status').textContent()).toContain('Schedule saved.');
    expect(await page.getByText(/Next run:/).isVisible()).toBe(true);
    await page.getByLabel('Cron expression').fill('* * * * *');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.locator('#schedule-error').waitFor();
    await screenshot(page, 'dashboard-schedule-invalid');
    await page.goto(`${base}/dashboard/reports`);
    expect(await page.locator(`tr:has(a[href="/reports/${id}"]) td[data-label="Schedule"]`).textContent()).toBe('0 6 * * 1');
  }, BROWSER_TEST_MS);

  it('can be used with the keyboard: the first Tab reaches the skip link, focus is visible', async () => {
    const page = ownerPage;
    await page.goto(`${base}/dashboard/reports`);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return { text: element.textContent, outline: getComputedStyle(element).outlineStyle };
    });
    expect(focused.text).toBe('Skip to content');
    expect(focused.outline).toBe('solid');
  }, BROWSER_TEST_MS);

  it('signs out', async () => {
    const page = ownerPage;
    await page.goto(`${base}/dashboard/projects`);
    await screenshot(page, 'dashboard-projects');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/sign-in?notice=signed-out`);
    await page.goto(`${base}/dashboard/reports`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  }, BROWSER_TEST_MS);

  it('keeps the API documentation at /docs working, within its own Content-Security-Policy', async () => {
    // Through newPage, so a style or script the page's policy blocks is a problem like on any other page
    // (swagger-ui's top bar drew its logo with an inline <style>, which that policy refuses).
    const page = await newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${base}/docs`);
    await page.getByText('pagegrade API').first().waitFor();
    // Opening an operation draws its parameters and schemas too.
    await page.getByText('Create a report').first().click();
    await page.getByText('Request body').first().waitFor();
    await screenshot(page, 'api-docs');
    expect(violations).toEqual([]);
  }, BROWSER_TEST_MS);

  it('met no script error, blocked resource or dialog on any page', () => {
    expect(problems).toEqual([]);
  });
});
