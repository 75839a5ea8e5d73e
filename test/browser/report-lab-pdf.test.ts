// /reports/{id}.pdf of a report with a lab audit, printed by the server's real Chromium (the lab audit
// itself made by a stand-in browser): the PDF is the report page on paper, so it carries the Lab
// section (the profile, the metrics with their bands, the LCP element, what was downloaded) and the
// Accessibility category with its failed rule.
// Without /usr/bin/chromium these tests say so and skip, unless PAGEGRADE_REQUIRE_BROWSER=1 (CI).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzerFromConfig } from '../../src/services/index.ts';
import { checksById } from '../../src/checks/index.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { labStandInBrowser } from '../support/lab-fixtures.ts';
import { readPdfPages } from '../support/pdf-pages.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';

const BROWSER_TEST_MS = 90_000;

const squashed = (text: string) => text.normalize('NFKC').replace(/\s+/g, '');

whenChromiumMissing('the PDF of a report with a lab audit');

describe.runIf(chromiumInstalled)('the PDF of a report with a lab audit', () => {
  let t: TestApp;
  let site: Site;
  let reportId: number;

  beforeAll(async () => {
    // The app's own Chromium prints; the analyzer's lab audits come from the stand-in.
    t = await startTestApp('sqlite', {}, (config) => ({ analyzer: analyzerFromConfig(config, undefined, labStandInBrowser()) }));
    site = await startSite({ '/': html(goodPage()) });
    const owner = await t.createAccount('lab-pdf');
    reportId = (await t.app.services.reports.create(owner.organization, { url: site.url('/'), privacy: 0, lab: 'mobile' })).id;
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('carries the Lab section and the Accessibility category', { timeout: BROWSER_TEST_MS }, async () => {
    const response = await t.app.inject({ method: 'GET', url: `/reports/${reportId}.pdf` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const pages = await readPdfPages(new Uint8Array(response.rawPayload));
    // pdf.js splits words where a ligature was ("pro fi le"), and paper shows each table cell under its
    // column's name ("MEASURED 4,690 ms"): the phrases are compared without spaces, in order.
    const text = squashed(pages.map((page) => page.text).join(' '));
    let from = 0;
    for (const phrase of [
      'Lab',
      'Loaded cold in Chromium as on a phone (mobile profile)',
      'Largest Contentful Paint (LCP)', '4,690 ms', 'Poor', 'good ≤ 2,500 ms, poor > 4,000 ms',
      'Total Blocking Time (TBT)', '0 ms', 'Good',
      'Page weight', '6.0 KiB in 2 requests',
      'Largest contentful paint element', 'img#hero',
      'Accessibility (axe-core)', '50/100: 1 of 2 rules checked violated',
      'What the page downloaded',
      'Accessibility', checksById.get('a11y_image_alt')!.failureTitle,
      // The rules that do not apply: one row, not a page of them.
      'rules (No element on the page this rule applies to.)',
    ]) {
      const at = text.indexOf(squashed(phrase), from);
      expect(at, `"${phrase}" after position ${from}`).toBeGreaterThan(-1);
      from = at;
    }
    expect(text).not.toContain(squashed('Active <area> elements must have alternative text'));
  });
});
