// The score and verdict of CHECKS.md: a weighted fraction of applicable checks, with a cap for
// pages search engines cannot index.
import type { Importance } from '../checks/check.ts';
import type { CheckResult, IssueCounts, Verdict } from '../analysis/types.ts';

export const POINTS: Readonly<Record<Importance, number>> = { high: 10, medium: 5, low: 2 };

/** A failure of any of these means search engines will not index the page. */
const INDEXABILITY_CHECKS = ['http_status', 'noindex', 'robots'] as const;

export interface Score {
  score: number;
  result: Verdict;
  issues: IssueCounts;
}

export function verdictFor(score: number): Verdict {
  if (score >= 80) return 'good';
  if (score >= 50) return 'decent';
  return 'bad';
}

export function scoreResults(results: Readonly<Record<string, CheckResult>>): Score {
  let earned = 0;
  let possible = 0;
  const issues: IssueCounts = { high: 0, medium: 0, low: 0 };
  for (const result of Object.values(results)) {
    if (result.passed === null) continue;
    const points = POINTS[result.importance];
    possible += points;
    if (result.passed) earned += points;
    else issues[result.importance] += 1;
  }
  // No applicable check at all cannot happen with the real registry (http_status always applies);
  // treat it as nothing earned rather than dividing by zero.
  const score = possible === 0 ? 0 : Math.round((100 * earned) / possible);
  let result = verdictFor(score);
  const notIndexable = INDEXABILITY_CHECKS.some((id) => results[id]?.passed === false);
  if (notIndexable && result === 'good') result = 'decent';
  return { score, result, issues };
}
