// The dashboard's reports list in Chromium at the sizes people use it, with everything a list holds at
// its longest: 32 reports, URLs of 300 characters, every privacy value, named and cron schedules,
// changes of score, and reports still being analysed. At 1280x900 (and on a wide screen) the document
// never scrolls sideways, the table keeps its Actions column, and every link in it is shown whole:
// inside the viewport and inside every box around it that could clip or scroll it. A long URL is cut
// with an ellipsis and whole in its title. On a phone each report is a card.
// Screenshots land in test-output/screenshots for a person to look at.
// Without /usr/bin/chromium these tests say so and skip, unless PAGEGRADE_REQUIRE_BROWSER=1 (CI).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { BAD_PAGE } from '../support/api-fixtures.ts';
import { chromiumInstalled, launchTestBrowser, whenChromiumMissing } from '../support/chromium.ts';
import { goodPage, holdGate, html, startSite, type Site } from '../support/site-server.ts';

const SCREENSHOTS = join(import.meta.dirname, '../../test-output/screenshots');
const BROWSER_TEST_MS = 120_000;
const REPORTS = 32;
const URL_LENGTH = 300;
const SCHEDULES = ['off', 'daily', 'weekly', 'monthly', '30 6 * * 1-5', '15 */2 1,15 * *'];

interface Overflow {
  /** document.documentElement.scrollWidth less the viewport's width. */
  sideways: number;
  headers: string[];
  /** Per link of the Actions column: its text, and what of it is hidden (by the viewport, or a box around it). */
  actions: { text: string; hiddenBy: string[] }[];
  /** The report links' text boxes: the whole URL in the title, and whether the text is cut. */
  urls: { title: string; cut: boolean }[];
  /** Whether rows are laid out as cards (the table's own layout dropped). */
  cards: boolean;
}

/** What the list looks like at the page's current size (measured in the page). */
function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const viewport = { left: 0, top: -Infinity, right: window.innerWidth, bottom: Infinity };
    const inside = (inner: DOMRect, outer: { left: number; right: number; top: number; bottom: number }) =>
      inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;
    const actions = [...document.querySelectorAll<HTMLAnchorElement>('td[data-label="Actions"] a')].map((link) => {
      const box = link.getBoundingClientRect();
      const hiddenBy: string[] = [];
      if (box.width === 0 || box.height === 0) hiddenBy.push('no size');
      if (!inside(box, viewport)) hiddenBy.push(`the viewport (${Math.round(box.left)}-${Math.round(box.right)} of ${window.innerWidth})`);
      // Any box around the link that clips what overflows it, or scrolls it, must hold the link whole.
      for (let element = link.parentElement; element && element !== document.documentElement; element = element.parentElement) {
        const style = getComputedStyle(element);
        const clips = [style.overflowX, style.overflowY].some((value) => value !== 'visible');
        if (!clips) continue;
        const scrolls = element.scrollWidth > element.clientWidth + 1;
        if (scrolls || !inside(box, element.getBoundingClientRect())) hiddenBy.push(`${element.tagName.toLowerCase()}.${element.className} (${style.overflowX})`);
      }
      return { text: link.textContent ?? '', hiddenBy };
    });
    const urls = [...document.querySelectorAll<HTMLElement>('.report-link .truncate')].map((text) => ({
      title: text.title,
      cut: text.scrollWidth > text.clientWidth,
    }));
    const row = document.querySelector('tbody tr');
    return {
      sideways: document.documentElement.scrollWidth - window.innerWidth,
      headers: [...document.querySelectorAll('thead th')].map((header) => header.textContent ?? ''),
      actions,
      urls,
      cards: row !== null && getComputedStyle(row).display === 'block',
    };
  });
}

whenChromiumMissing('the dashboard reports list in Chromium');

describe.runIf(chromiumInstalled)('the dashboard reports list in Chromium', () => {
  let t: TestApp;
  let site: Site;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const longUrls: string[] = [];
  const gate = holdGate();

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startTestApp('sqlite');
    site = await startSite({ '/long': html(goodPage()), '/bad': html(BAD_PAGE), '/held': gate.hold(html(goodPage())) });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const owner = await t.createAccount('owner');
    const { reports } = t.app.services;
    for (let index = 0; index < REPORTS; index += 1) {
      // A URL of exactly 300 characters, with no place to break but its slashes and dashes.
      const start = `${site.url('/long')}?report=${index}&path=`;
      const url = start + 'segment-of-a-very-long-address/'.repeat(20).slice(0, URL_LENGTH - start.length);
      longUrls.push(url);
      const privacy = (index % 3) as 0 | 1 | 2;
      const created = await reports.create(owner.organization, {
        url: index % 4 === 3 ? site.url('/bad') : url,
        privacy,
        password: privacy === 2 ? 'a password' : undefined,
        schedule: SCHEDULES[index % SCHEDULES.length],
      });
      // A second run: the list shows its change of score.
      if (index % 5 === 0) await reports.update(owner.organization, created.id, { regenerate: true });
    }
    // Reports still being analysed: no score, no run, a state of their own.
    for (let index = 0; index < 2; index += 1) await reports.create(owner.organization, { url: `${site.url('/held')}?${'q'.repeat(URL_LENGTH)}`, privacy: 0, background: true });

    browser = await launchTestBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('API key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/dashboard/reports`);
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    gate.release();
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  async function listAt(width: number, height: number, name: string): Promise<Overflow> {
    await page.setViewportSize({ width, height });
    await page.goto(`${base}/dashboard/reports?per_page=50`);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    return measure(page);
  }

  function expectWhole(list: Overflow): void {
    expect(list.sideways).toBeLessThanOrEqual(0);
    expect(list.actions.length).toBe(2 * (REPORTS + 2));
    expect(list.actions.filter((action) => action.hiddenBy.length > 0)).toEqual([]);
    // Each link reads whole: "Manage" and "Delete", never "Ma" or "De".
    expect(new Set(list.actions.map((action) => action.text.replace(/ report #\d+$/, '')))).toEqual(new Set(['Manage', 'Delete']));
  }

  it('fits 1280x900 with every Actions link whole, and cuts long URLs with their title whole', { timeout: BROWSER_TEST_MS }, async () => {
    const list = await listAt(1280, 900, 'dashboard-reports-1280');
    expect(list.headers).toContain('Actions');
    expect(list.cards).toBe(false);
    expectWhole(list);
    const titles = list.urls.map((url) => url.title);
    for (const url of longUrls.filter((_url, index) => index % 4 !== 3)) expect(titles).toContain(url);
    expect(list.urls.filter((url) => url.title.length >= URL_LENGTH).every((url) => url.cut)).toBe(true);
  });

  it('fits a laptop, a wide screen and a tablet the same way', { timeout: BROWSER_TEST_MS }, async () => {
    for (const [width, height] of [[1024, 768], [1920, 1080], [800, 1000]] as const) {
      const list = await listAt(width, height, `dashboard-reports-${width}`);
      expect(list.headers, `${width} px`).toContain('Actions');
      expectWhole(list);
    }
  });

  it('shows one card per report on a phone, every link whole', { timeout: BROWSER_TEST_MS }, async () => {
    const list = await listAt(390, 844, 'dashboard-reports-phone-390');
    expect(list.cards).toBe(true);
    expectWhole(list);
    expect((await listAt(320, 640, 'dashboard-reports-phone-320')).sideways).toBeLessThanOrEqual(0);
  });
});
