// A report whose page has structured data, through the real pipeline, storage and routing (the
// analyzer's judgement fixed by a stand-in around the real one): /reports/{id} shows the Structured
// data section under the Miscellaneous checks, the PDF is printed from that page (a stand-in printer
// records it) and carries it, and a run's page shows that run's structured data, not the latest's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analyzer } from '../../src/analysis/analyze-url.ts';
import type { PdfOptions } from '../../src/render/print-pdf.ts';
import { analyzerFromConfig } from '../../src/services/index.ts';
import type { StructuredDataReport } from '../../src/structured/structured-types.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectUniqueIds } from './web-client.ts';

const STRUCTURED_DATA: StructuredDataReport = {
  schema_org_version: '30.0',
  items: [{ format: 'json-ld', type: 'Product', line: 14 }],
  rich_results: [
    { feature: 'Product snippets', type: 'Product', line: 14, valid: true, retired: null, errors: [], warnings: [] },
    {
      feature: 'Merchant listings', type: 'Product', line: 14, valid: false, retired: null, warnings: [],
      errors: [{ property: 'offers.price', message: 'The offer\'s price must be a number, without currency sign.', value: '<b>about ninety euros</b>', line: 21 }],
    },
  ],
  errors: 1,
  warnings: 0,
  validation_errors: 0,
};

describe('a report with structured data, on the web', () => {
  let t: TestApp;
  let site: Site;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;
  let reportId: number;
  const printed: string[] = [];
  /** What the next analysis judges of the page's structured data. */
  let judged: StructuredDataReport | null = STRUCTURED_DATA;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { chromiumPath: process.execPath, workers: 0 }, (config) => {
      const real = analyzerFromConfig(config);
      const analyzer: Analyzer = async (url, request) => ({ ...(await real(url, request)), structuredData: judged });
      return { analyzer };
    });
    Object.assign(t.app.services.rendering, {
      pdf: async (page: string, _options: PdfOptions) => {
        printed.push(page);
        return Buffer.from('%PDF-1.7\n% stand-in\n');
      },
    });
    site = await startSite({ '/': html(goodPage()) });
    owner = await t.createAccount('structured');
    reportId = (await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 0 })).id;
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('shows the Structured data section under the Miscellaneous checks, the page\'s value escaped', async () => {
    const { statusCode, body } = await new WebClient(t.app).get(`/reports/${reportId}`);
    expect(statusCode).toBe(200);
    const at = body.indexOf('<h2 id="structured-data-heading">Structured data</h2>');
    expect(at).toBeGreaterThan(body.indexOf('id="category-miscellaneous"'));
    expect(at).toBeLessThan(body.indexOf('<section class="page-facts"'));
    expect(body).toContain('<strong>Eligible for:</strong> Product snippets');
    expect(body).toContain('<strong>Blocked:</strong> Merchant listings — <code>offers.price</code>');
    expect(body).toContain('Value: <code>&lt;b&gt;about ninety euros&lt;/b&gt;</code>');
    expect(body).not.toContain('<b>about ninety euros</b>');
    expectUniqueIds(body);
  });

  it('prints the PDF from that page: the section is in it', async () => {
    printed.length = 0;
    const response = await new WebClient(t.app, '10.3.0.1').get(`/reports/${reportId}.pdf`);
    expect(response.statusCode).toBe(200);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('<h2 id="structured-data-heading">Structured data</h2>');
    expect(printed[0]).toContain('Merchant listings');
  });

  it('a later run without structured data shows none; the earlier run\'s page keeps its own', async () => {
    judged = null;
    await t.app.services.reports.update(owner.organization, reportId, { regenerate: true });
    expect((await new WebClient(t.app).get(`/reports/${reportId}`)).body).not.toContain('structured-data-heading');
    const runs = (await t.app.services.lists.runs(owner.organization, reportId, { page: 1, perPage: 2 })).items;
    expect(runs).toHaveLength(2);
    const first = (await new WebClient(t.app).get(`/reports/${reportId}/runs/${runs[1].id}`)).body;
    expect(first).toContain('<h2 id="structured-data-heading">Structured data</h2>');
    const second = (await new WebClient(t.app).get(`/reports/${reportId}/runs/${runs[0].id}`)).body;
    expect(second).not.toContain('structured-data-heading');
  });
});
