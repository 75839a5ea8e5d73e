// A report made with a lab audit, through the real pipeline and routing with a stand-in browser (its
// lab audits fixed, no Chromium): /reports/{id} shows the Lab section and the Accessibility category,
// the PDF is printed from that page (a stand-in printer records it) and carries them, a later run
// without a lab audit shows neither, and the earlier run's page still shows its own lab audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdfOptions } from '../../src/render/print-pdf.ts';
import { analyzerFromConfig } from '../../src/services/index.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { labStandInBrowser } from '../support/lab-fixtures.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient } from './web-client.ts';

describe('a report with a lab audit, on the web', () => {
  let t: TestApp;
  let site: Site;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;
  let reportId: number;
  const printed: string[] = [];

  beforeAll(async () => {
    // Chromium "is there" (any executable will do): the stand-in makes the lab audits.
    t = await startTestApp('sqlite', { chromiumPath: process.execPath, workers: 0 }, (config) => ({ analyzer: analyzerFromConfig(config, undefined, labStandInBrowser()) }));
    Object.assign(t.app.services.rendering, {
      pdf: async (page: string, _options: PdfOptions) => {
        printed.push(page);
        return Buffer.from('%PDF-1.7\n% stand-in\n');
      },
    });
    site = await startSite({ '/': html(goodPage()) });
    owner = await t.createAccount('lab');
    reportId = (await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 0, lab: 'desktop' })).id;
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('shows the Lab section and the Accessibility category with its gauge', async () => {
    const { statusCode, body } = await new WebClient(t.app).get(`/reports/${reportId}`);
    expect(statusCode).toBe(200);
    expect(body).toContain('<h2 id="lab-heading">Lab</h2>');
    expect(body).toContain('(desktop profile)');
    expect(body).toMatch(/data-metric="lcp_ms">[\s\S]*?4,690 ms[\s\S]*?verdict-chip--bad lab-band">Poor</);
    expect(body).toContain('<code class="lab-selector">img#hero</code>');
    expect(body).toContain('<dt>Accessibility (axe-core)</dt><dd>50/100: 1 of 2 rules checked violated.');
    expect(body).toContain('<h2 id="category-accessibility-heading">Accessibility</h2>');
    expect(body).toContain('aria-label="Accessibility: 50 out of 100"');
    expect(body).toMatch(/<li class="check check--failed" id="check-a11y_image_alt">/);
  });

  it('prints the PDF from that page: the Lab section and the Accessibility category are in it', async () => {
    printed.length = 0;
    const response = await new WebClient(t.app, '10.2.0.1').get(`/reports/${reportId}.pdf`);
    expect(response.statusCode).toBe(200);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('<h2 id="lab-heading">Lab</h2>');
    expect(printed[0]).toContain('4,690 ms');
    expect(printed[0]).toContain('<h2 id="category-accessibility-heading">Accessibility</h2>');
  });

  it('a later run without a lab audit shows neither; the earlier run\'s page keeps its own', async () => {
    await t.app.services.reports.update(owner.organization, reportId, { regenerate: true });
    const latest = (await new WebClient(t.app).get(`/reports/${reportId}`)).body;
    expect(latest).not.toContain('id="lab-heading"');
    expect(latest).not.toContain('id="category-accessibility"');
    const runs = (await t.app.services.lists.runs(owner.organization, reportId, { page: 1, perPage: 2 })).items;
    expect(runs).toHaveLength(2);
    const first = (await new WebClient(t.app).get(`/reports/${reportId}/runs/${runs[1].id}`)).body;
    expect(first).toContain('<h2 id="lab-heading">Lab</h2>');
    expect(first).toContain('<h2 id="category-accessibility-heading">Accessibility</h2>');
    const second = (await new WebClient(t.app).get(`/reports/${reportId}/runs/${runs[0].id}`)).body;
    expect(second).not.toContain('id="lab-heading"');
  });
});
