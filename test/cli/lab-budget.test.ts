// A budget's lab assertions judged on analyses with a lab audit (fixtures, no browser): each metric
// must not exceed its limit, a broken one is one stderr line naming it, the URL, the limit and the
// value, and the gate fails (exit 1); a metric that was not measured, or a page whose audit could not
// observe it, is only noted; categories.accessibility is the accessibility category's score.
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../src/analysis/types.ts';
import { checkBudget, type Budget } from '../../src/cli/budget.ts';
import { renderProblems } from '../../src/cli/analyze-output.ts';
import { exitCodeFor, gateFailures } from '../../src/cli/exit-status.ts';
import type { UrlOutcome } from '../../src/cli/url-outcome.ts';
import { categoryScore } from '../../src/scoring/score.ts';
import { LAB, LAB_RESULTS, labAnalysis, resultOf } from '../support/lab-fixtures.ts';

const URL = 'https://example.com/';
const outcome = (analysis: Analysis): UrlOutcome => ({ url: analysis.url, analysis });
const ALL_LIMITS: Budget = { lab: { lcp_ms: 2500, cls: 0.1, tbt_ms: 200, fcp_ms: 1800 } };

describe('a budget\'s lab limits', () => {
  it('a line per metric over its limit, with the limit, the URL and the value measured', () => {
    // The fixture: LCP 4,690, CLS 0.012, TBT 250, FCP 702.
    expect(checkBudget(labAnalysis(), ALL_LIMITS)).toEqual({
      broken: [`--budget lab.lcp_ms 2500: ${URL} measured 4690.`, `--budget lab.tbt_ms 200: ${URL} measured 250.`],
      unchecked: [],
    });
    expect(checkBudget(labAnalysis(), { lab: { cls: 0.01 } }).broken).toEqual([`--budget lab.cls 0.01: ${URL} measured 0.012.`]);
  });

  it('a value equal to its limit is within it; 0 is a limit like any', () => {
    expect(checkBudget(labAnalysis(), { lab: { lcp_ms: 4690, cls: 0.012, tbt_ms: 250, fcp_ms: 702 } })).toEqual({ broken: [], unchecked: [] });
    const still = labAnalysis({ lab: { ...LAB, metrics: { ...LAB.metrics, tbt_ms: 0, cls: 0 } } });
    expect(checkBudget(still, { lab: { tbt_ms: 0, cls: 0 } })).toEqual({ broken: [], unchecked: [] });
    expect(checkBudget(labAnalysis(), { lab: { fcp_ms: 0 } }).broken).toEqual([`--budget lab.fcp_ms 0: ${URL} measured 702.`]);
  });

  it('a metric the audit did not measure is not judged, and a note says so', () => {
    const painted = labAnalysis({ lab: { ...LAB, metrics: { ...LAB.metrics, lcp_ms: null, fcp_ms: null, tbt_ms: null } } });
    expect(checkBudget(painted, ALL_LIMITS)).toEqual({
      broken: [],
      unchecked: [
        `--budget lab.lcp_ms 2500 not checked for ${URL}: the lab audit measured no LCP (nothing contentful was painted).`,
        `--budget lab.tbt_ms 200 not checked for ${URL}: the lab audit measured no TBT (nothing contentful was painted).`,
        `--budget lab.fcp_ms 1800 not checked for ${URL}: the lab audit measured no FCP (nothing contentful was painted).`,
      ],
    });
  });

  it('a page whose audit could not observe it: every lab limit is noted with the reason, none broken', () => {
    const reason = 'The lab audit could not load the page: net::ERR_CONNECTION_RESET.';
    const failed = labAnalysis({ lab: null, results: { largest_contentful_paint: resultOf('largest_contentful_paint', null, { reason }) } });
    expect(checkBudget(failed, { lab: { lcp_ms: 2500, cls: 0.1 } })).toEqual({
      broken: [],
      unchecked: [
        `--budget lab.lcp_ms 2500 not checked for ${URL}: no lab audit of the page (${reason}).`,
        `--budget lab.cls 0.1 not checked for ${URL}: no lab audit of the page (${reason}).`,
      ],
    });
  });

  it('categories.accessibility: the accessibility score against its limit; not judged when no rule applied', () => {
    expect(categoryScore(LAB_RESULTS, 'accessibility')).toBe(67);
    expect(checkBudget(labAnalysis(), { categories: { accessibility: 90 } }).broken).toEqual([
      `--budget categories.accessibility 90: ${URL} scored 67 in Accessibility.`,
    ]);
    expect(checkBudget(labAnalysis(), { categories: { accessibility: 67 } })).toEqual({ broken: [], unchecked: [] });
    const noRule = labAnalysis({ results: { title: LAB_RESULTS.title, a11y_label: LAB_RESULTS.a11y_label } });
    expect(checkBudget(noRule, { categories: { accessibility: 90 } })).toEqual({
      broken: [],
      unchecked: [`--budget categories.accessibility 90 not checked for ${URL}: no Accessibility check applies.`],
    });
  });

  it('must_pass takes an accessibility check like any', () => {
    expect(checkBudget(labAnalysis(), { must_pass: ['a11y_image_alt', 'a11y_html_has_lang'] }).broken).toEqual([
      `--budget must_pass a11y_image_alt: ${URL} failed it (Images must have alternative text).`,
    ]);
  });
});

describe('the lab budget as a gate', () => {
  const slow = labAnalysis();
  const fast = labAnalysis({ url: 'https://example.com/fast', lab: { ...LAB, metrics: { ...LAB.metrics, lcp_ms: 1200, tbt_ms: 0 } } });
  const unpainted = labAnalysis({ url: 'https://example.com/blank', lab: { ...LAB, metrics: { ...LAB.metrics, lcp_ms: null, tbt_ms: 0 } } });

  it('fails (exit 1) when any page breaks a limit, each broken one said on stderr, the notes too', () => {
    const outcomes = [outcome(slow), outcome(fast), outcome(unpainted)];
    const gates = { budget: { lab: { lcp_ms: 2500 } } };
    expect(gateFailures(outcomes, gates)).toEqual([`--budget lab.lcp_ms 2500: ${URL} measured 4690.`]);
    expect(exitCodeFor(outcomes, gates)).toBe(1);
    expect(renderProblems(outcomes, gates)).toBe(
      `pagegrade: gate failed: --budget lab.lcp_ms 2500: ${URL} measured 4690.\n` +
        'pagegrade: --budget lab.lcp_ms 2500 not checked for https://example.com/blank: the lab audit measured no LCP (nothing contentful was painted).\n',
    );
  });

  it('passes (exit 0) when every measured page is within its limits; an unmeasured metric fails nothing', () => {
    const outcomes = [outcome(fast), outcome(unpainted)];
    expect(exitCodeFor(outcomes, { budget: { lab: { lcp_ms: 2500, tbt_ms: 200 } } })).toBe(0);
  });

  it('a URL not analysed still outranks a broken lab limit (exit 3)', () => {
    expect(exitCodeFor([outcome(slow), { url: 'https://example.com/gone', error: 'unreachable' }], { budget: ALL_LIMITS })).toBe(3);
  });
});
