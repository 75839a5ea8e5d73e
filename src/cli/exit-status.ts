// The exit code of `analyze` and the CI gates that decide it (documented in the command's --help).
import type { Verdict } from '../analysis/types.ts';
import { checkBudget, type Budget } from './budget.ts';
import { describeRegression } from './comparison-text.ts';
import { printable } from './terminal-text.ts';
import type { UrlOutcome } from './url-outcome.ts';

const EXIT_OK = 0;
const EXIT_GATE_FAILED = 1;
const EXIT_NOT_ANALYSED = 3;

export type FailOn = Exclude<Verdict, 'good'>;

export interface Gates {
  failOn?: FailOn;
  minScore?: number;
  /** with --compare: any analysed URL that got worse than its earlier result */
  failOnRegression?: boolean;
  /** --budget: each broken assertion on an analysed page fails the gate */
  budget?: Budget;
}

const FAILING_VERDICTS: Record<FailOn, readonly Verdict[]> = { bad: ['bad'], decent: ['decent', 'bad'] };

/**
 * One sentence per gate that failed, e.g. "--min-score 90: 2 of 3 pages scored below 90.", and one
 * per page that regressed, so a CI log says which page got worse and why.
 */
export function gateFailures(outcomes: readonly UrlOutcome[], gates: Gates): string[] {
  const analyses = outcomes.flatMap((outcome) => ('analysis' in outcome ? [outcome.analysis] : []));
  const failures: string[] = [];
  if (gates.failOn) {
    const verdicts = FAILING_VERDICTS[gates.failOn];
    const failed = analyses.filter((analysis) => verdicts.includes(analysis.result)).length;
    if (failed > 0) failures.push(`--fail-on ${gates.failOn}: ${failed} of ${analyses.length} pages graded ${verdicts.join(' or ')}.`);
  }
  if (gates.minScore !== undefined) {
    const minScore = gates.minScore;
    const failed = analyses.filter((analysis) => analysis.score < minScore).length;
    if (failed > 0) failures.push(`--min-score ${minScore}: ${failed} of ${analyses.length} pages scored below ${minScore}.`);
  }
  if (gates.failOnRegression) {
    for (const outcome of outcomes) {
      const reasons = 'comparison' in outcome ? (outcome.comparison?.reasons ?? []) : [];
      if (reasons.length > 0) failures.push(`--fail-on-regression: ${printable(outcome.url)} got worse: ${describeRegression(reasons)}.`);
    }
  }
  const budget = gates.budget;
  if (budget) failures.push(...analyses.flatMap((analysis) => checkBudget(analysis, budget).broken));
  return failures;
}

/** A URL that could not be analysed outranks a failed gate: the audit itself is incomplete. */
export function exitCodeFor(outcomes: readonly UrlOutcome[], gates: Gates): number {
  if (outcomes.some((outcome) => 'error' in outcome)) return EXIT_NOT_ANALYSED;
  return gateFailures(outcomes, gates).length > 0 ? EXIT_GATE_FAILED : EXIT_OK;
}
