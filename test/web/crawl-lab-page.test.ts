// Lab audits of a crawl on the dashboard (docs/lab.md, "Lab audits of a crawl"): the new-crawl form
// offers them under "More settings" when the server has a browser (a checkbox, how many pages, the
// profile) and not without one; a crawl started with them shows its lab settings, then its lab audits
// by URL template (p75s with their bands, the mean accessibility score). The crawl runs in a worker of
// the test's own with a stand-in browser (test/support/lab-crawl-worker.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Renderer } from '../../src/render/renderer.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import type { Account } from '../support/api-fixtures.ts';
import { showCrawl } from '../support/crawl-fixtures.ts';
import { startLabCrawlWorker, type LabCrawlWorker } from '../support/lab-crawl-worker.ts';
import { labAudit, labResources, labStandInBrowser } from '../support/lab-fixtures.ts';
import { html, linkingPage, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectLabelledInputs, expectUniqueIds } from './web-client.ts';

/** A browser whose every lab audit measures LCP 4,690 ms (poor), CLS 0.012 (good), TBT 250 ms (needs improvement). */
function standInBrowser(): Renderer {
  return labStandInBrowser((_url, profile) =>
    labAudit({
      profile,
      metrics: { ttfb_ms: 20, fcp_ms: 700, lcp_ms: 4690, cls: 0.012, tbt_ms: 250, load_ms: 900 },
      lcp_element: null,
      resources: labResources({ document: [1, 4000] }),
      accessibility: { ok: true, rules: { 'html-has-lang': { outcome: 'passed' } } },
    }),
  );
}

const crawlIdOf = (location: unknown) => Number(/^\/dashboard\/crawls\/(\d+)$/.exec(String(location))?.[1]);

describe('lab audits of a crawl on the dashboard', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;
  let browser: WebClient;
  let worker: LabCrawlWorker;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { workers: 0, chromiumPath: process.execPath });
    site = await startSite({
      '/': html(linkingPage('The coffee shop with a lab', ['/product/1', '/product/2'])),
      '/product/1': html(linkingPage('The first coffee of the shop', ['/'])),
      '/product/2': html(linkingPage('The second coffee of the shop', ['/'])),
    });
    account = await t.createAccount('lab-owner');
    browser = new WebClient(t.app);
    await browser.signIn(account.key);
    worker = startLabCrawlWorker(t.config, standInBrowser());
  });
  afterAll(async () => {
    await worker?.close();
    await site?.close();
    await t?.close();
  });

  it('offers lab audits under "More settings": the checkbox off, 20 pages, the mobile profile', async () => {
    const form = await browser.get('/dashboard/crawls/new');
    expect(form.statusCode).toBe(200);
    const more = /<details class="form-more">([\s\S]*?)<\/details>/.exec(form.body)?.[1] ?? '';
    expect(more).toMatch(/<summary>More settings[^<]*lab audits<\/summary>/);
    expect(more).toMatch(/<input id="lab" name="lab" type="checkbox" value="1" aria-describedby="lab-hint">/);
    expect(more).toMatch(/<input id="lab_pages" name="lab_pages" type="number"[^>]* min="1" max="200"[^>]* value="20"/);
    const profiles = /<select id="lab_profile" name="lab_profile"[^>]*>([\s\S]*?)<\/select>/.exec(more)?.[1] ?? '';
    expect([...profiles.matchAll(/<option value="([^"]+)"( selected)?/g)].map((match) => `${match[1]}${match[2] ?? ''}`)).toEqual(['mobile selected', 'desktop']);
    expectUniqueIds(form.body);
    expectLabelledInputs(form.body);
  });

  it('starts a lab crawl, shows its settings, then its lab audits by URL template', async () => {
    await browser.get('/dashboard/crawls/new');
    const started = await browser.post('/dashboard/crawls', { url: site.url('/'), max_pages: 10, max_depth: 2, sitemap: 0, privacy: 0, external: 0, lab: 1, lab_pages: 3, lab_profile: 'desktop' });
    expect(started.statusCode, started.body).toBe(303);
    const id = crawlIdOf(started.headers.location);
    expect((await showCrawl(t, account, id)).lab).toEqual({ profile: 'desktop', lab_pages: 3, pages: 0, templates: [] });

    const waiting = await browser.get(`/dashboard/crawls/${id}`);
    expect(waiting.body).toContain('<dt>Lab audits</dt><dd>Up to 3 pages, desktop profile</dd>');
    expect(waiting.body).toContain('0 pages audited so far of up to 3.');
    expect(waiting.body).toContain('No lab audit has succeeded yet.');

    await worker.run(id);
    const done = await browser.get(`/dashboard/crawls/${id}`);
    expect(done.statusCode).toBe(200);
    const section = /<section class="crawl-lab" id="lab"[\s\S]*?<\/section>/.exec(done.body)?.[0] ?? '';
    expect(section).toContain('3 pages audited of up to 3.');
    expect(section).toContain('as on a desktop computer (desktop profile)');
    const rows = [...section.matchAll(/<tr data-template="([^"]+)">([\s\S]*?)<\/tr>/g)].map((match) => [match[1], match[2]]);
    expect(rows.map(([pattern]) => pattern)).toEqual(['/', '/product/{n}']);
    const [, products] = rows[1];
    expect(products).toMatch(/<td data-label="Pages">2<\/td>/);
    expect(products).toMatch(/<td data-label="LCP \(p75\)">4,690 ms <span class="verdict-chip verdict-chip--bad lab-band">Poor<\/span><\/td>/);
    expect(products).toMatch(/<td data-label="CLS \(p75\)">0.012 <span class="verdict-chip verdict-chip--good lab-band">Good<\/span><\/td>/);
    expect(products).toMatch(/<td data-label="TBT \(p75\)">250 ms <span class="verdict-chip verdict-chip--decent lab-band">Needs improvement<\/span><\/td>/);
    expect(products).toMatch(/<td data-label="Accessibility">100\/100<\/td>/);
    expect(done.body).toMatch(/<a href="#lab">Lab audits<\/a> <span class="category-counts">3 pages audited<\/span>/);
    expectUniqueIds(done.body);
  });

  it('shows the form again with the error beside the pages to audit', async () => {
    await browser.get('/dashboard/crawls/new');
    const refused = await browser.post('/dashboard/crawls', { url: site.url('/'), max_pages: 10, max_depth: 2, lab: 1, lab_pages: 500, lab_profile: 'mobile' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('<details class="form-more" open>');
    expect(refused.body).toMatch(/<p class="field-error" id="lab_pages-error">The lab_pages must be an integer from 1 to 200.<\/p>/);
    expect(refused.body).toMatch(/<input id="lab" name="lab" type="checkbox" value="1" checked/);
    expect(refused.body).toMatch(/<input id="lab_pages"[^>]* value="500" aria-describedby="lab_pages-hint lab_pages-error" aria-invalid="true">/);
  });
});

describe('the new-crawl form without a browser on the server', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { workers: 0, chromiumPath: '/nonexistent/chromium' });
  });
  afterAll(() => t?.close());

  it('does not offer lab audits', async () => {
    const account = await t.createAccount('no-browser');
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    const form = await browser.get('/dashboard/crawls/new');
    expect(form.statusCode).toBe(200);
    expect(form.body).not.toContain('name="lab"');
    expect(form.body).not.toContain('name="lab_pages"');
    expect(form.body).toMatch(/<summary>More settings: scope, user agent, a staging site's headers, a list of URLs, a schedule<\/summary>/);
  });
});
