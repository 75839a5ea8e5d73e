// A crawl's page in Chromium (playwright-core against the real app on a loopback port): start a crawl
// with the form, land on its page while it runs, then see the site issues and the page table, on a
// wide screen and at a phone's width with nothing wider than the screen. Screenshots land in
// test-output/screenshots. Without Chromium these tests skip, unless PAGEGRADE_REQUIRE_BROWSER=1 (CI).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { chromiumInstalled, launchTestBrowser, whenChromiumMissing } from '../support/chromium.ts';
import { untilCrawlEnded } from '../support/crawl-fixtures.ts';
import { html, linkingPage, type Site, startSite } from '../support/site-server.ts';

const SCREENSHOTS = join(import.meta.dirname, '../../test-output/screenshots');
const BROWSER_TEST_MS = 60_000;
const PHONE = { width: 360, height: 780 };
const WIDE = { width: 1200, height: 900 };

const LONG_PATH = `/guides/${'a-very-long-path-segment-without-any-spaces-'.repeat(4)}end`;

whenChromiumMissing('the crawl page in Chromium');

describe.runIf(chromiumInstalled)('the crawl page in Chromium', () => {
  let t: TestApp;
  let site: Site;
  let base: string;
  let browser: Browser;
  let account: Awaited<ReturnType<TestApp['createAccount']>>;
  let tab: Page;
  const problems: string[] = [];

  async function horizontalOverflow(): Promise<number> {
    return tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startTestApp('sqlite');
    site = await startSite({
      '/': html(linkingPage('Home of the mountain coffee roastery', ['/beans', '/brewing', LONG_PATH, '/gone', '/also-gone'])),
      '/beans': html(linkingPage('Our coffee beans and where they grow', ['/', '/brewing'])),
      '/brewing': html(linkingPage('Our coffee beans and where they grow', ['/', '/gone'])),
      [LONG_PATH]: html(linkingPage('A guide with a very long address', ['/'])),
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    account = await t.createAccount('crawler');
    browser = await launchTestBrowser();
    tab = await (await browser.newContext({ viewport: WIDE })).newPage();
    tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    tab.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of/.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  it('starts a crawl with the form and lands on its page', async () => {
    await tab.goto(`${base}/sign-in`);
    await tab.getByLabel('API key').fill(account.key);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.waitForURL(`${base}/dashboard/reports`);

    await tab.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Crawls' }).click();
    await tab.waitForURL(`${base}/dashboard/crawls`);
    await tab.getByRole('link', { name: 'New crawl' }).click();
    await tab.getByLabel('Start URL').fill(site.url('/'));
    await tab.getByLabel('Most pages').fill('20');
    expect(await tab.getByLabel("Also crawl the URLs in the site's sitemaps").isChecked()).toBe(true);
    await tab.screenshot({ path: join(SCREENSHOTS, 'crawl-form.png') });
    await tab.getByRole('button', { name: 'Start the crawl' }).click();
    await tab.waitForURL(/\/dashboard\/crawls\/\d+$/);
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe(site.url('/').replace('http://', '').replace(/\/$/, ''));
    expect(await tab.getByText(/\d+ of 20 pages analysed, \d+ found, \d+ failed/).isVisible()).toBe(true);
  }, BROWSER_TEST_MS);

  it('shows the finished crawl\'s issues and pages, on a wide screen and on a phone', async () => {
    const id = Number(/\/dashboard\/crawls\/(\d+)$/.exec(tab.url())?.[1]);
    const crawl = await untilCrawlEnded(t, account, id);
    expect(crawl.state).toBe('done');
    await tab.reload();

    const issues = tab.getByRole('region', { name: 'Site issues' });
    const pages = tab.getByRole('region', { name: 'Pages', exact: true });
    const rows = pages.locator('tbody tr');
    for (const viewport of [WIDE, PHONE]) {
      await tab.setViewportSize(viewport);
      expect(await tab.locator('.score-ring').getAttribute('aria-label')).toBe(`Score ${crawl.score} out of 100`);
      expect(await issues.isVisible()).toBe(true);
      const broken = issues.locator('#issue-broken_links');
      expect(await broken.getByRole('heading', { name: 'Internal links lead to errors' }).isVisible()).toBe(true);
      expect(await broken.getByRole('link', { name: /\/gone$/ }).isVisible()).toBe(true);
      expect(await issues.getByRole('heading', { name: 'Several indexable pages share a title' }).isVisible()).toBe(true);
      expect(await rows.count()).toBeGreaterThanOrEqual(6);
      expect(await rows.first().isVisible()).toBe(true);
      expect(await pages.getByRole('link', { name: /^127\.0\.0\.1:\d+\/beans$/ }).isVisible()).toBe(true);
      expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
      await tab.screenshot({ path: join(SCREENSHOTS, viewport === PHONE ? 'crawl-page-phone.png' : 'crawl-page.png'), fullPage: true });
    }

    // A row opens its page's report.
    await pages.getByRole('link', { name: /^127\.0\.0\.1:\d+\/beans$/ }).click();
    await tab.waitForURL(/\/reports\/\d+$/);
    // The report's headline is the page's title; the URL stands under it.
    expect(await tab.locator('.report-url').textContent()).toContain('/beans');
    await tab.goBack();

    // The filters: only the pages that answered 4xx.
    await tab.setViewportSize(WIDE);
    await tab.getByLabel('HTTP status').selectOption('4xx');
    await tab.getByRole('button', { name: 'Apply' }).click();
    await tab.waitForURL(/status=4xx/);
    const statuses = await pages.locator('td[data-label="Status"]').allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => /^4\d\d$/.test(status.trim()))).toBe(true);
  }, BROWSER_TEST_MS);

  it('shows the project\'s latest crawl on its page, on a phone too', async () => {
    const project = new URL(site.origin).host;
    await tab.goto(`${base}/dashboard/projects`);
    await tab.getByRole('link', { name: project, exact: true }).click();
    await tab.waitForURL(`${base}/dashboard/projects/${encodeURIComponent(project)}`);
    const latest = tab.getByRole('region', { name: 'Latest crawl' });
    expect(await latest.getByText('Done').isVisible()).toBe(true);
    expect(await tab.getByRole('link', { name: 'Crawl this site' }).getAttribute('href')).toBe(`/dashboard/crawls/new?url=${encodeURIComponent(site.url('/'))}`);
    await tab.setViewportSize(PHONE);
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await tab.screenshot({ path: join(SCREENSHOTS, 'project-page-phone.png'), fullPage: true });
    await tab.setViewportSize(WIDE);
  }, BROWSER_TEST_MS);

  it('met no script error or blocked resource', () => {
    expect(problems).toEqual([]);
  });
});
