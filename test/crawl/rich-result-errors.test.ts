// rich_result_errors through a crawl (docs/structured-data.md, "Crawls"): two pages whose Product has
// neither offers, review nor aggregateRating give one finding naming both; a retired feature's page
// (FAQ) and a page without structured data give none; the finding enters the crawl's medium issues,
// its issues CSV as a row of its own, and the check catalogue lists the check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, type Account, type Body } from '../support/api-fixtures.ts';
import { html } from '../support/site-server.ts';
import { crawlIssues, simplePage, startCrawl, startRecordingSite, untilCrawlEnded, type RecordingSite } from '../support/crawl-fixtures.ts';

const jsonLd = (data: object) => `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...data })}</script>`;

describe.each(testDialects())('rich-result errors across a crawl [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;
  let site: RecordingSite;

  beforeAll(async () => {
    site = await startRecordingSite({
      '/': html(simplePage('Coffee shop home', ['/p/1', '/p/2', '/faq'])),
      '/p/1': html(simplePage('Mountain beans', ['/'], { head: jsonLd({ '@type': 'Product', name: 'Mountain beans' }) })),
      '/p/2': html(simplePage('Valley beans', ['/'], { head: jsonLd({ '@type': 'Product', name: 'Valley beans' }) })),
      '/faq': html(
        simplePage('Questions', ['/'], {
          head: jsonLd({ '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'Fresh?', acceptedAnswer: { '@type': 'Answer', text: 'Yes.' } }] }),
        }),
      ),
    });
    t = await startTestApp(dialect, { workers: 2 });
    account = await t.createAccount('rich-results');
  });

  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  it('groups the same error of two pages into one finding with page_count 2', async () => {
    const started = await startCrawl(t, account, { url: site.url('/'), max_pages: 10, sitemap: 0, external: 0 });
    const crawl = await untilCrawlEnded(t, account, started.id);
    expect(crawl.state, JSON.stringify(crawl)).toBe('done');
    expect(crawl.pages_crawled).toBe(4);

    const issues = await crawlIssues(t, account, started.id);
    const item = { type: 'Product', property: 'review|aggregateRating|offers', message: expect.stringMatching(/review/), pages: [site.url('/p/1'), site.url('/p/2')], page_count: 2 };
    expect(issues.rich_result_errors).toEqual({ id: 'rich_result_errors', importance: 'medium', count: 1, items: [item] });
    const medium = Object.values(issues).filter((issue: Body) => issue.importance === 'medium').reduce((sum: number, issue: Body) => sum + issue.count, 0);
    expect(crawl.issues.medium).toBe(medium);

    const csv = (await call(t, account, 'GET', `/api/v1/crawls/${started.id}/issues?format=csv`)).body.split('\r\n');
    const rows = csv.filter((line) => line.startsWith('rich_result_errors,'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^rich_result_errors,medium,1,"\[\{""type"":""Product"",""property"":""review\|aggregateRating\|offers""/);
  });

  it('lists the check in the catalogue with its texts', async () => {
    const checks = body(await t.app.inject({ method: 'GET', url: '/api/v1/checks' })).data as Body[];
    expect(checks.find((check) => check.id === 'rich_result_errors')).toMatchObject({
      category: 'site',
      importance: 'medium',
      title: expect.any(String),
      failure_title: expect.any(String),
      description: expect.any(String),
      how_to_fix: expect.any(String),
    });
  });
});
