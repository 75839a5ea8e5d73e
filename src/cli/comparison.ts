// `analyze --compare`: each analysed URL against its earlier result, with the diff of the API's runs
// and the regression rule of its report.regressed alert (PAGEGRADE_ALERT_SCORE_DROP), not copies.
import { diffAnalyses } from '../services/run-diff.ts';
import { regressionReasons } from '../services/run-events.ts';
import { urlKey, type EarlierResults } from './compare-file.ts';
import type { UrlOutcome } from './url-outcome.ts';

/** The outcome with its comparison; a URL that could not be analysed now has nothing to compare. */
export function withComparison(outcome: UrlOutcome, earlier: EarlierResults, scoreDrop: number): UrlOutcome {
  if ('error' in outcome) return outcome;
  const before = earlier.get(urlKey(outcome.url));
  if (!before) return { ...outcome, comparison: null };
  const { score, result, generatedAt, results } = outcome.analysis;
  const diff = diffAnalyses(before, { score, result, generated_at: generatedAt.toISOString(), results });
  return { ...outcome, comparison: { diff, reasons: regressionReasons(diff, scoreDrop) } };
}
