// The score and verdict (docs/checks.md, "Score and verdict"): a weighted fraction of applicable
// checks, with a cap for pages search engines cannot index and a floor for error pages. Every verdict
// (API, web, CLI gates, crawls) comes from here.
import type { Category, Importance } from '../checks/check.ts';
import type { CheckResult, IssueCounts, Verdict } from '../analysis/types.ts';

export const WEIGHTS: Readonly<Record<Importance, number>> = { high: 10, medium: 5, low: 2 };

/** A failure of any of these means search engines will not index the page. */
const INDEXABILITY_CHECKS = ['http_status', 'noindex', 'robots'] as const;

/**
 * Fails when the final status is 4xx or 5xx: then there is no page at all for a search engine, and a
 * broken deploy must not pass `--fail-on bad` on the strength of its error page's markup.
 */
const ERROR_STATUS_CHECK = 'http_status';

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
    const points = WEIGHTS[result.importance];
    possible += points;
    if (result.passed) earned += points;
    else issues[result.importance] += 1;
  }
  // No applicable check at all cannot happen with the real registry (http_status always applies);
  // treat it as nothing earned rather than dividing by zero.
  const score = possible === 0 ? 0 : Math.round((100 * earned) / possible);
  return { score, result: cappedVerdict(verdictFor(score), results), issues };
}

/** The page's score over one category's checks alone; null when none of them applies. */
export function categoryScore(results: Readonly<Record<string, CheckResult>>, category: Category): number | null {
  const inCategory = Object.entries(results).filter(([, result]) => result.category === category);
  if (!inCategory.some(([, result]) => result.passed !== null)) return null;
  return scoreResults(Object.fromEntries(inCategory)).score;
}

/** The score's verdict after the rules that override it (docs/checks.md, "Score and verdict"). */
function cappedVerdict(fromScore: Verdict, results: Readonly<Record<string, CheckResult>>): Verdict {
  if (results[ERROR_STATUS_CHECK]?.passed === false) return 'bad';
  const notIndexable = INDEXABILITY_CHECKS.some((id) => results[id]?.passed === false);
  return notIndexable && fromScore === 'good' ? 'decent' : fromScore;
}

/**
 * Why the verdict is not the one the score alone gives, in a sentence for people; null when the
 * score explains it. Shown beside the grade on the report page, in the PDF and in the CLI's text.
 */
export function verdictReason(results: Readonly<Record<string, CheckResult>>): string | null {
  const { score, result } = scoreResults(results);
  const fromScore = verdictFor(score);
  if (result === fromScore) return null;
  if (results[ERROR_STATUS_CHECK]?.passed === false) {
    const status = (results[ERROR_STATUS_CHECK].value as { status_code?: unknown } | null)?.status_code;
    const answer = typeof status === 'number' ? `answers ${status}` : 'answers with an error status';
    return `Bad whatever the score: the page ${answer}, so there is no page for search engines to index.`;
  }
  const blocked = INDEXABILITY_CHECKS.filter((id) => results[id]?.passed === false).map((id) => BLOCK_REASONS[id]);
  return `At most decent whatever the score: ${blocked.join(' and ')}, so search engines will not index it.`;
}

const BLOCK_REASONS: Readonly<Record<(typeof INDEXABILITY_CHECKS)[number], string>> = {
  http_status: 'the page answers with an error status',
  noindex: 'the page asks not to be indexed',
  robots: 'robots.txt blocks the page',
};
