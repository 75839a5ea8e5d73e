// The report's `structured_data` (docs/structured-data.md) through the API: a page's items and
// rich-result entries with their lines on create, on the report and on its run; null for a page without
// structured data; left out of lists; the checks in `results`; the field in the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { editablePage, startSite, type Site } from '../support/site-server.ts';
import { body, call, createReport, type Body } from '../support/api-fixtures.ts';

const PRODUCT_PAGE = `<!doctype html><html lang="en"><head><title>Blue widget, the best widget</title>
<script type="application/ld+json">
{"@context": "https://schema.org",
 "@type": "Product",
 "name": "Blue widget",
 "offers": {"@type": "Offer",
   "price": "€89",
   "priceCurrency": "EUR"}}
</script></head><body>
<ol itemscope itemtype="https://schema.org/BreadcrumbList">
 <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
  <a itemprop="item" href="/shop"><span itemprop="name">Shop</span></a><meta itemprop="position" content="1"></li>
</ol><p>A widget.</p></body></html>`;

describe.each(testDialects())('structured data in reports [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('gives a report its items and rich-result entries with lines, on the report and on its run, never in lists', async () => {
    const account = await t.createAccount();
    const target = editablePage(site, PRODUCT_PAGE);
    const report: Body = await createReport(t, account, target.url);
    const structured = report.structured_data;
    expect(structured).toMatchObject({
      schema_org_version: '30.0',
      items: [
        { format: 'json-ld', type: 'Product', line: 3 },
        { format: 'microdata', type: 'BreadcrumbList', line: 10 },
      ],
      validation_errors: 0,
    });
    expect(structured.rich_results.map((entry: Body) => [entry.feature, entry.valid, entry.line])).toEqual([
      ['Product snippets', false, 3],
      ['Merchant listings', false, 3],
      ['Breadcrumb', true, 10],
    ]);
    expect(structured.rich_results[0].errors).toEqual([
      { property: 'offers.price', message: "The offer's price must be a number, without currency sign.", value: '€89', line: 7 },
    ]);
    expect(structured.errors).toBe(structured.rich_results.reduce((sum: number, entry: Body) => sum + entry.errors.length, 0));
    expect(report.results.rich_results).toMatchObject({ passed: false, importance: 'medium', category: 'miscellaneous' });
    expect(report.results.rich_results.value).toMatchObject({ schema_org_version: '30.0', eligible: ['Breadcrumb'], ineligible: ['Merchant listings', 'Product snippets'] });
    expect(report.results.structured_data_valid).toMatchObject({ passed: true, value: { schema_org_version: '30.0', items: 2, formats: ['json-ld', 'microdata'], errors: 0 } });

    const shown = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}`)).data;
    expect(shown.structured_data).toEqual(structured);
    const runs = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs`)).data;
    expect(runs[0]).not.toHaveProperty('structured_data');
    const run = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs/${runs[0].id}`)).data;
    expect(run.structured_data).toEqual(structured);
    const list = body(await call(t, account, 'GET', '/api/v1/reports')).data;
    expect(list[0]).not.toHaveProperty('structured_data');

    // The page loses its structured data: the new run has none, the first run keeps its own.
    target.set('<!doctype html><html lang="en"><head><title>Blue widget, the best widget</title></head><body><p>Gone.</p></body></html>');
    const again = body(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1 })).data;
    expect(again.structured_data).toBeNull();
    expect(body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs/${runs[0].id}`)).data.structured_data).toEqual(structured);
  });

  it('documents structured_data on the report and run schemas', async () => {
    const document = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body);
    for (const schema of ['Report', 'Run']) {
      const field = document.components.schemas[schema].properties.structured_data;
      expect(field, schema).toBeDefined();
      expect(JSON.stringify(field)).toContain('rich_results');
    }
  });
});
