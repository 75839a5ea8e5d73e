import { describe, expect, it } from 'vitest';
import { isRegression, regressionReasons } from './run-events.ts';
import type { RunDiff } from './run-diff.ts';

function diff(from: { score: number; result: 'good' | 'decent' | 'bad' }, to: { score: number; result: 'good' | 'decent' | 'bad' }, newlyFailed: ('high' | 'medium' | 'low')[] = []): RunDiff {
  const header = (run: typeof from, number: number) => ({ id: number, number, ...run, generated_at: '2026-11-27T00:00:00.000Z' });
  return {
    report_id: 1,
    from: header(from, 1),
    to: header(to, 2),
    score_delta: to.score - from.score,
    result_changed: from.result !== to.result,
    newly_failed: newlyFailed.map((importance, index) => ({ id: `check-${index}`, importance, from: null, to: null })),
    fixed: [],
    still_failing: [],
  };
}

describe('a regression', () => {
  it('is a verdict that went down, even by one point of score', () => {
    expect(isRegression(diff({ score: 80, result: 'good' }, { score: 79, result: 'decent' }), 10)).toBe(true);
  });

  it('is a score that fell by the setting or more; less is not', () => {
    expect(isRegression(diff({ score: 75, result: 'decent' }, { score: 65, result: 'decent' }), 10)).toBe(true);
    expect(isRegression(diff({ score: 75, result: 'decent' }, { score: 66, result: 'decent' }), 10)).toBe(false);
  });

  it('is a high-importance check newly failing; a medium or low one alone is not', () => {
    expect(isRegression(diff({ score: 90, result: 'good' }, { score: 90, result: 'good' }, ['high']), 10)).toBe(true);
    expect(isRegression(diff({ score: 90, result: 'good' }, { score: 88, result: 'good' }, ['medium', 'low']), 10)).toBe(false);
  });

  it('is never a run that got better', () => {
    expect(isRegression(diff({ score: 40, result: 'bad' }, { score: 95, result: 'good' }), 10)).toBe(false);
  });

  it('comes with each reason it is one (the CLI prints them)', () => {
    expect(regressionReasons(diff({ score: 90, result: 'good' }, { score: 60, result: 'decent' }, ['high', 'low', 'high']), 10)).toEqual([
      { kind: 'verdict_down', from: 'good', to: 'decent' },
      { kind: 'score_fell', by: 30 },
      { kind: 'high_newly_failing', ids: ['check-0', 'check-2'] },
    ]);
    expect(regressionReasons(diff({ score: 80, result: 'good' }, { score: 85, result: 'good' }, ['medium']), 10)).toEqual([]);
  });
});
