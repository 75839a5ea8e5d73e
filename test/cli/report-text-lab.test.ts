// The text report of `analyze --lab` (src/cli/report-text.ts, lab-text.ts) from a fixture analysis:
// the Lab part under the score (the profile, the six metrics, the four banded ones with their band,
// page weight, the LCP element, the accessibility summary), the failed accessibility checks among the
// failures like any check, the rules that do not apply one line per reason; an audit that could not
// observe the page says why; a report without --lab has no Lab part.
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../src/analysis/types.ts';
import { NO_LAB_AUDIT_REASON } from '../../src/checks/lab-audit.ts';
import { checksById } from '../../src/checks/index.ts';
import { inCliWords } from '../../src/cli/cli-words.ts';
import { renderReport } from '../../src/cli/report-text.ts';
import { createStyle } from '../../src/cli/terminal-text.ts';
import type { Lab } from '../../src/lab/lab-types.ts';
import { LAB, LAB_RESULTS, labAnalysis, resultOf } from '../support/lab-fixtures.ts';

const plain = createStyle(false);
const linesOf = (analysis: Analysis) => renderReport(analysis, plain).split('\n');
const withLab = (lab: Partial<Lab>) => labAnalysis({ lab: { ...LAB, ...lab } });

/** The Lab part: from its heading to the blank line after it. */
function labPart(analysis: Analysis): string[] {
  const lines = linesOf(analysis);
  const start = lines.findIndex((line) => line.startsWith('Lab audit'));
  if (start === -1) return [];
  return lines.slice(start, lines.indexOf('', start));
}

describe('the Lab part of the text report', () => {
  it('comes right under the score: the profile, the metrics with their bands, page weight, the LCP element, accessibility', () => {
    const lines = linesOf(labAnalysis());
    expect(lines.slice(0, 4)).toEqual(['https://example.com/', expect.stringMatching(/^Score \d+\/100 /), expect.stringMatching(/^HTTP 200 /), '']);
    expect(labPart(labAnalysis())).toEqual([
      'Lab audit (mobile profile)',
      '  Largest Contentful Paint (LCP)  4,690 ms  poor',
      '  Cumulative Layout Shift (CLS)   0.012     good',
      '  Total Blocking Time (TBT)       250 ms    needs improvement',
      '  First Contentful Paint (FCP)    702 ms    good',
      '  Time to First Byte (TTFB)       571 ms',
      '  Load event                      4,703 ms',
      '  Page weight                     79.3 KiB (81,234 bytes) in 7 requests  good',
      '  LCP element                     img#hero  <img id="hero" src="/img/hero.png" alt="">',
      '  Accessibility                   67/100 · 1 of 3 rules checked violated',
    ]);
    expect(lines.indexOf('Lab audit (mobile profile)')).toBe(4);
    expect(lines[lines.indexOf('Lab audit (mobile profile)') + 10]).toBe('');
    expect(lines[lines.indexOf('Lab audit (mobile profile)') + 11]).toMatch(/^Failed checks \(3\)$/);
  });

  it.each([
    // Good up to and including the first edge, needs improvement up to and including the second, poor above.
    [{ lcp_ms: 2500, cls: 0.1, tbt_ms: 200, fcp_ms: 1800 }, ['good', 'good', 'good', 'good']],
    [{ lcp_ms: 2501, cls: 0.101, tbt_ms: 201, fcp_ms: 1801 }, ['needs improvement', 'needs improvement', 'needs improvement', 'needs improvement']],
    [{ lcp_ms: 4000, cls: 0.25, tbt_ms: 600, fcp_ms: 3000 }, ['needs improvement', 'needs improvement', 'needs improvement', 'needs improvement']],
    [{ lcp_ms: 4001, cls: 0.251, tbt_ms: 601, fcp_ms: 3001 }, ['poor', 'poor', 'poor', 'poor']],
    [{ lcp_ms: 0, cls: 0, tbt_ms: 0, fcp_ms: 0 }, ['good', 'good', 'good', 'good']],
  ])('bands LCP, CLS, TBT and FCP by their edges: %j', (metrics, bands) => {
    const part = labPart(withLab({ metrics: { ...LAB.metrics, ...metrics } }));
    expect(part.slice(1, 5).map((line) => /(good|needs improvement|poor)$/.exec(line)?.[1])).toEqual(bands);
    // TTFB and load have no band.
    expect(part[5]).toMatch(/571 ms$/);
    expect(part[6]).toMatch(/4,703 ms$/);
  });

  it('bands the page weight at 1,600 and 4,000 KiB', () => {
    const weight = (bytes: number) => labPart(withLab({ resources: { ...LAB.resources, bytes, requests: 1 } }))[7];
    expect(weight(1_638_400)).toBe('  Page weight                     1,600.0 KiB (1,638,400 bytes) in 1 request  good');
    expect(weight(1_638_401)).toMatch(/ needs improvement$/);
    expect(weight(4_096_000)).toMatch(/ needs improvement$/);
    expect(weight(4_096_001)).toMatch(/ poor$/);
  });

  it('says what was not measured, and why, without a band', () => {
    const part = labPart(withLab({ metrics: { ttfb_ms: null, fcp_ms: null, lcp_ms: null, cls: 0, tbt_ms: null, load_ms: null }, lcp_element: null }));
    expect(part.slice(1, 9)).toEqual([
      '  Largest Contentful Paint (LCP)  not measured: nothing contentful was painted',
      '  Cumulative Layout Shift (CLS)   0  good',
      '  Total Blocking Time (TBT)       not measured: nothing contentful was painted',
      '  First Contentful Paint (FCP)    not measured: nothing contentful was painted',
      '  Time to First Byte (TTFB)       not measured',
      '  Load event                      not measured: the load event did not come within the audit',
      '  Page weight                     79.3 KiB (81,234 bytes) in 7 requests  good',
      '  LCP element                     none (no LCP, or its element is gone)',
    ]);
  });

  it('says when no accessibility rule applied, and the desktop profile', () => {
    const part = labPart(withLab({ profile: 'desktop', accessibility: { score: null, violations: 0, rules_checked: 0 } }));
    expect(part[0]).toBe('Lab audit (desktop profile)');
    expect(part[9]).toBe('  Accessibility                   no rule applied');
  });

  it('keeps what came from the page on its line and short', () => {
    const snippet = `<div class="hero\n\u001b[31mred">${'x'.repeat(300)}</div>`;
    const line = labPart(withLab({ lcp_element: { selector: 'div.hero\u202e', snippet } }))[8];
    expect(line).not.toMatch(/[\n\u001b\u202e]/);
    expect(line).toMatch(/^ {2}LCP element {21}div\.hero {2}<div class="hero \[31mred">x+…$/);
    expect([...line].length).toBeLessThan(150);
  });

  it('colours the bands as verdicts when colour is on', () => {
    const text = renderReport(labAnalysis(), createStyle(true));
    expect(text).toContain('4,690 ms  \u001b[31mpoor\u001b[39m');
    expect(text).toContain('250 ms    \u001b[33mneeds improvement\u001b[39m');
    expect(text).toContain('0.012     \u001b[32mgood\u001b[39m');
  });
});

describe('the lab and accessibility checks in the text report', () => {
  const lines = linesOf(labAnalysis());

  it('lists the failed accessibility checks among the failures, under Accessibility, with what was found and the fix', () => {
    const imageAlt = checksById.get('a11y_image_alt')!;
    const at = lines.indexOf(`  ✗ ${imageAlt.failureTitle} [${imageAlt.importance}]`);
    expect(at).toBeGreaterThan(lines.indexOf('Accessibility'));
    expect(lines.indexOf('Accessibility')).toBeGreaterThan(lines.indexOf('Performance'));
    expect(lines.slice(at + 1, at + 4)).toEqual([
      '      violations:',
      '        - selector: img#hero, snippet: <img id="hero" src="/img/hero.png" alt="">, message: Fix any of the following:   Element does not have an alt attribute',
      `      Fix: ${imageAlt.howToFix}`,
    ]);
    // The lab metrics that failed are performance checks.
    expect(lines.indexOf(`  ✗ ${checksById.get('largest_contentful_paint')!.failureTitle} [high]`)).toBeGreaterThan(lines.indexOf('Performance'));
    expect(lines.indexOf(`  ✗ ${checksById.get('largest_contentful_paint')!.failureTitle} [high]`)).toBeLessThan(lines.indexOf('Accessibility'));
  });

  it('lists the rules that do not apply one line per reason, with their count; a lone one by its title', () => {
    const start = lines.indexOf('Not applicable (3)');
    expect(lines.slice(start + 1, start + 3)).toEqual([
      `  - ${checksById.get('a11y_color_contrast')!.title}: axe-core could only mark this rule as needing review: a person has to judge the elements it found.`,
      '  - 2 accessibility rules: No element on the page this rule applies to.',
    ]);
  });

  it('without --lab: no Lab part, and the 64 rules that do not apply are one line naming --lab', () => {
    const results = Object.fromEntries(
      [...checksById.values()]
        .filter((check) => check.category === 'accessibility' || check.id === 'largest_contentful_paint' || check.id === 'title')
        .map((check) => [check.id, check.id === 'title' ? LAB_RESULTS.title : resultOf(check.id, null, { reason: NO_LAB_AUDIT_REASON })]),
    );
    const rules = [...checksById.values()].filter((check) => check.category === 'accessibility').length;
    expect(rules).toBeGreaterThanOrEqual(60);
    const analysis = inCliWords(labAnalysis({ results, lab: undefined }));
    const text = renderReport(analysis, plain);
    expect(text).not.toContain('Lab audit');
    expect(text).not.toContain('lab=1');
    const notApplicable = text.slice(text.indexOf('Not applicable')).split('\n');
    expect(notApplicable).toEqual([
      `Not applicable (${rules + 1})`,
      `  - ${checksById.get('largest_contentful_paint')!.title}: No lab audit was made (run analyze with --lab).`,
      `  - ${rules} accessibility rules: No lab audit was made (run analyze with --lab).`,
      '',
    ]);
  });

  it('an audit that could not observe the page: the Lab part says why, from the lab checks', () => {
    const reason = 'The lab audit could not load the page: net::ERR_CONNECTION_RESET.';
    const results = { title: LAB_RESULTS.title, largest_contentful_paint: resultOf('largest_contentful_paint', null, { reason }) };
    expect(labPart(labAnalysis({ results, lab: null }))).toEqual(['Lab audit', `  Not measured: ${reason}`]);
  });
});
