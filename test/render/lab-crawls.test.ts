// lab=1 on a crawl in the server's own Chromium (docs/lab.md, "Lab audits of a crawl"), end to end:
// the crawl's jobs pick one page a URL template, audit each in the real browser once every page is in,
// and the audited pages' reports show what was measured; the crawl shows the templates' figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { body, call, type Account, type Body } from '../support/api-fixtures.ts';
import { chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { startCrawl, untilCrawlEnded } from '../support/crawl-fixtures.ts';
import { html, linkingPage, startSite, type Site } from '../support/site-server.ts';

const LAB_CRAWL_TEST_MS = 120_000;

whenChromiumMissing('lab=1 on crawls');

describe.runIf(chromiumInstalled)('lab=1 on a crawl, in Chromium', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;
  let crawl: Body;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    site = await startSite({
      '/': html(linkingPage('Home of the mountain coffee roastery', ['/product/1', '/product/2', '/about'])),
      '/product/1': html(linkingPage('Mountain coffee beans', ['/'])),
      '/product/2': html(linkingPage('Valley coffee beans', ['/'])),
      '/about': html(linkingPage('About the roastery', ['/'])),
    });
    account = await t.createAccount();
    const started = await startCrawl(t, account, { url: site.url('/'), max_pages: 10, lab: 1, lab_pages: 3, lab_profile: 'desktop', external: 0 });
    crawl = await untilCrawlEnded(t, account, started.id, LAB_CRAWL_TEST_MS - 10_000);
  }, LAB_CRAWL_TEST_MS);
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('audits one page of each template, in template order, and sums them up per template', () => {
    expect(crawl).toMatchObject({ state: 'done', pages_crawled: 4 });
    expect(crawl.lab).toMatchObject({ profile: 'desktop', lab_pages: 3, pages: 3 });
    expect(crawl.lab.templates.map((template: Body) => [template.pattern, template.pages])).toEqual([
      ['/', 1],
      ['/about', 1],
      ['/product/{n}', 1],
    ]);
    for (const template of crawl.lab.templates) {
      expect(template.lcp_ms_p75).toBeGreaterThan(0);
      expect(template.cls_p75).toBe(0);
      expect(template.accessibility_score).toBeGreaterThanOrEqual(0);
    }
  });

  it('puts each audit in its page\'s crawl run: the report shows lab and the lab checks; the page not picked has none', async () => {
    const reports = body(await call(t, account, 'GET', `/api/v1/reports?search=${encodeURIComponent(new URL(site.origin).host)}&per_page=100`)).data as Body[];
    const byPath = new Map(reports.map((report) => [new URL(report.url).pathname, report.id]));
    for (const path of ['/', '/about', '/product/1']) {
      const report = body(await call(t, account, 'GET', `/api/v1/reports/${byPath.get(path)}`)).data;
      expect(report.lab, path).toMatchObject({ profile: 'desktop', metrics: { cls: 0 } });
      expect(report.lab.metrics.lcp_ms, path).toBeGreaterThan(0);
      expect(report.results.largest_contentful_paint.passed, path).toBe(true);
      expect(typeof report.results.a11y_document_title.passed, path).toBe('boolean');
    }
    const unpicked = body(await call(t, account, 'GET', `/api/v1/reports/${byPath.get('/product/2')}`)).data;
    expect(unpicked.lab).toBeNull();
    expect(unpicked.results.largest_contentful_paint.passed).toBeNull();
  });
});
