import { describe, expect, it } from 'vitest';
import { scoreResults, verdictFor, verdictReason } from './score.ts';
import type { CheckResult } from '../analysis/types.ts';

function result(passed: boolean | null, importance: CheckResult['importance']): CheckResult {
  return passed === null
    ? { passed, importance, category: 'seo', value: null, errors: null, reason: 'n/a' }
    : { passed, importance, category: 'seo', value: null, errors: null };
}

describe('scoreResults', () => {
  it('weights high 10, medium 5, low 2 and rounds', () => {
    // earned 10 + 2 = 12 of 10 + 5 + 2 = 17 -> 70.6 -> 71
    const score = scoreResults({ a: result(true, 'high'), b: result(false, 'medium'), c: result(true, 'low') });
    expect(score).toEqual({ score: 71, result: 'decent', issues: { high: 0, medium: 1, low: 0 } });
  });

  it('leaves not-applicable checks out of both sides of the fraction', () => {
    const score = scoreResults({ a: result(true, 'high'), b: result(null, 'high'), c: result(null, 'low') });
    expect(score.score).toBe(100);
    expect(score.issues).toEqual({ high: 0, medium: 0, low: 0 });
  });

  it('caps a page that cannot be indexed at decent', () => {
    const results: Record<string, CheckResult> = { noindex: result(false, 'high') };
    for (let i = 0; i < 30; i++) results[`c${i}`] = result(true, 'high');
    const score = scoreResults(results);
    expect(score.score).toBeGreaterThanOrEqual(80);
    expect(score.result).toBe('decent');
  });

  it('grades an error page (http_status failed: 4xx or 5xx) bad, whatever it scores', () => {
    const results: Record<string, CheckResult> = { http_status: result(false, 'high') };
    for (let i = 0; i < 30; i++) results[`c${i}`] = result(true, 'high');
    const score = scoreResults(results);
    expect(score.score).toBeGreaterThanOrEqual(80);
    expect(score.result).toBe('bad');
    // a middling error page too, which the indexability cap alone left decent
    expect(scoreResults({ http_status: result(false, 'high'), a: result(true, 'high'), b: result(true, 'medium') }).result).toBe('bad');
  });

  it('keeps bad when the capped page scores low anyway', () => {
    expect(scoreResults({ http_status: result(false, 'high'), x: result(true, 'low') }).result).toBe('bad');
  });

  it('maps score bands to verdicts at the edges', () => {
    expect([verdictFor(80), verdictFor(79), verdictFor(50), verdictFor(49)]).toEqual(['good', 'decent', 'decent', 'bad']);
  });
});

describe('verdictReason', () => {
  const passing = () => Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`c${i}`, result(true, 'high')]));

  it('says nothing when the score explains the verdict', () => {
    expect(verdictReason(passing())).toBeNull();
    // an error page that scores bad anyway: no surprise to explain
    expect(verdictReason({ http_status: result(false, 'high'), x: result(true, 'low') })).toBeNull();
  });

  it('names the status of an error page graded bad despite its score', () => {
    const results = { ...passing(), http_status: { ...result(false, 'high'), value: { status_code: 404, final_url: 'https://x.test/' } } };
    expect(verdictReason(results)).toBe('Bad whatever the score: the page answers 404, so there is no page for search engines to index.');
  });

  it('says why a page that cannot be indexed is at most decent', () => {
    expect(verdictReason({ ...passing(), noindex: result(false, 'high') })).toBe(
      'At most decent whatever the score: the page asks not to be indexed, so search engines will not index it.',
    );
    expect(verdictReason({ ...passing(), noindex: result(false, 'high'), robots: result(false, 'high') })).toContain(
      'the page asks not to be indexed and robots.txt blocks the page',
    );
  });
});
