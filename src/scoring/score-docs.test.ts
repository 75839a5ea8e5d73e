// The score rules docs/checks.md states ("Score and verdict"), held to the scoring code: the rules are
// written by hand in the generator (checks/check-docs.ts), so a change to either that leaves the other
// behind fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { categoryScore, WEIGHTS, scoreResults, verdictFor } from './score.ts';
import type { CheckResult } from '../analysis/types.ts';
import type { Importance } from '../checks/check.ts';

const rules = (() => {
  const text = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');
  const start = text.indexOf('\n## Score and verdict\n');
  return start === -1 ? '' : text.slice(start, text.indexOf('\n## ', start + 1));
})();

/** The rule line matching `pattern`, or a failure naming the rule docs/checks.md lost. */
function rule(pattern: RegExp): RegExpExecArray {
  const found = pattern.exec(rules);
  expect(found, `docs/checks.md "Score and verdict" has a rule matching ${pattern}`).not.toBeNull();
  return found!;
}

function result(passed: boolean | null, importance: Importance, category: CheckResult['category'] = 'seo'): CheckResult {
  return passed === null
    ? { passed, importance, category, value: null, errors: null, reason: 'n/a' }
    : { passed, importance, category, value: null, errors: null };
}

/** Thirty passed high-importance checks and the given ones: a score far above any verdict line. */
function goodPageWith(extra: Record<string, CheckResult>): Record<string, CheckResult> {
  const results: Record<string, CheckResult> = { ...extra };
  for (let i = 0; i < 30; i++) results[`passed_${i}`] = result(true, 'high');
  return results;
}

describe('the score rules of docs/checks.md', () => {
  it('weigh the importances as documented, and leave checks that do not apply out of the fraction', () => {
    const [, high, medium, low] = rule(/^- Weight by importance: high (\d+), medium (\d+), low (\d+)\.$/m).map(Number);
    expect(WEIGHTS).toEqual({ high, medium, low });
    rule(/^- The score is `round\(100 \* weight of passed checks \/ weight of applicable checks\)`/m);
    const score = scoreResults({ a: result(true, 'high'), b: result(false, 'medium'), c: result(true, 'low'), d: result(null, 'high') });
    expect(score.score).toBe(Math.round((100 * (high + low)) / (high + medium + low)));
  });

  it('draw the verdict lines where documented', () => {
    const [, good, decent] = rule(/^- The verdict \(`result`\): `good` from a score of (\d+), `decent` from (\d+), `bad` below\.$/m).map(Number);
    expect([verdictFor(100), verdictFor(good), verdictFor(good - 1), verdictFor(decent), verdictFor(decent - 1), verdictFor(0)]).toEqual([
      'good',
      'good',
      'decent',
      'decent',
      'bad',
      'bad',
    ]);
  });

  it('cap a page that cannot be indexed at decent, for each check the rule names', () => {
    const [, named] = rule(/^- A page search engines cannot index \(([^)]*) failed\) is at most `decent`\.$/m);
    const ids = [...named.matchAll(/`([a-z0-9_]+)`/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const score = scoreResults(goodPageWith({ [id]: result(false, 'high') }));
      expect(score.score, id).toBeGreaterThanOrEqual(80);
      expect(score.result, id).toBe('decent');
    }
  });

  it('make a page with an error status bad whatever it scores', () => {
    const [, id] = rule(/^- A page whose final status is an error \(`([a-z0-9_]+)` failed: 4xx or 5xx\) is `bad` whatever it scores\.$/m);
    expect(scoreResults(goodPageWith({ [id]: result(false, 'high') })).result).toBe('bad');
  });

  it('score a category over its own checks, with none when none of them applies', () => {
    rule(/^- A category's score \(SEO, Performance, Security, Miscellaneous, Accessibility\) is the same fraction over that category's\n {2}checks alone; it has none when none of them applies\.$/m);
    const results = { a: result(true, 'high', 'seo'), b: result(false, 'low', 'seo'), c: result(false, 'high', 'security'), d: result(null, 'low', 'performance') };
    expect(categoryScore(results, 'seo')).toBe(Math.round((100 * WEIGHTS.high) / (WEIGHTS.high + WEIGHTS.low)));
    expect(categoryScore(results, 'security')).toBe(0);
    expect(categoryScore(results, 'performance')).toBeNull();
  });
});
