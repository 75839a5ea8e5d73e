// What `analyze --lab` writes besides the text report, from fixture analyses: --json (and --output
// *.json, the same renderer) carries `lab` as the API's report does, null when the audit could not
// observe the page, and nothing without --lab; the HTML file is the report page with its Lab section and
// Accessibility category; JUnit and SARIF carry the lab and accessibility checks like any check.
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/cli/analyze-output.ts';
import { renderHtml } from '../../src/cli/outputs/html.ts';
import { renderJunit } from '../../src/cli/outputs/junit.ts';
import { renderSarif } from '../../src/cli/outputs/sarif.ts';
import type { UrlOutcome } from '../../src/cli/url-outcome.ts';
import { LAB, LAB_RESULTS, labAnalysis } from '../support/lab-fixtures.ts';

const withLab: UrlOutcome = { url: 'https://example.com/', analysis: labAnalysis() };

describe('--json with --lab', () => {
  it('carries `lab` beside the results, as the API report has it, and the lab checks in results', () => {
    const json = JSON.parse(renderJson([withLab]));
    expect(json.lab).toEqual(LAB);
    expect(Object.keys(json)).toEqual(['url', 'result', 'score', 'issues', 'page', 'results', 'lab', 'structured_data', 'generated_at']);
    expect(json.results.largest_contentful_paint).toEqual({ ...LAB_RESULTS.largest_contentful_paint });
    expect(json.results.a11y_image_alt.category).toBe('accessibility');
  });

  it('`lab` is null when the audit could not observe the page, and absent without --lab', () => {
    const failed = JSON.parse(renderJson([{ url: 'https://example.com/', analysis: labAnalysis({ lab: null }) }]));
    expect(failed).toHaveProperty('lab', null);
    const without = JSON.parse(renderJson([{ url: 'https://example.com/', analysis: labAnalysis({ lab: undefined }) }]));
    expect(without).not.toHaveProperty('lab');
  });

  it('each URL of several carries its own', () => {
    const other = labAnalysis({ url: 'https://example.com/b', lab: { ...LAB, profile: 'desktop' } });
    const json = JSON.parse(renderJson([withLab, { url: other.url, analysis: other }]));
    expect(json.map((item: { lab: { profile: string } }) => item.lab.profile)).toEqual(['mobile', 'desktop']);
  });
});

describe('--output files with --lab', () => {
  it('the HTML file shows the Lab section and the Accessibility category', () => {
    const page = renderHtml([withLab]);
    expect(page).toContain('<h2 id="lab-heading">Lab</h2>');
    expect(page).toContain('4,690 ms');
    expect(page).toContain('<h2 id="category-accessibility-heading">Accessibility</h2>');
    expect(page).toContain('id="check-a11y_image_alt"');
  });

  it('the HTML file of an analysis without --lab shows neither', () => {
    const page = renderHtml([{ url: 'https://example.com/', analysis: labAnalysis({ lab: undefined }) }]);
    expect(page).not.toContain('id="lab-heading"');
    expect(page).not.toContain('id="category-accessibility"');
  });

  it('JUnit and SARIF carry the lab and accessibility checks like any check', () => {
    const junit = renderJunit([withLab]);
    for (const id of ['largest_contentful_paint', 'a11y_image_alt', 'a11y_html_has_lang']) expect(junit).toContain(`name="${id}: `);
    const sarif = JSON.parse(renderSarif([withLab]));
    const failed = sarif.runs[0].results.map((result: { ruleId: string }) => result.ruleId).sort();
    expect(failed).toEqual(['a11y_image_alt', 'largest_contentful_paint', 'total_blocking_time']);
  });
});
