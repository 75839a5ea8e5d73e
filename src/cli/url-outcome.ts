// One URL of an `analyze` run: analysed, or the reason it could not be.
import { parseTargetUrl } from '../analysis/target-url.ts';
import type { Analysis } from '../analysis/types.ts';
import type { Analyzer } from '../analysis/analyze-url.ts';
import { inCliWords } from './cli-words.ts';
import { FetchError } from '../fetch/fetch-error.ts';
import type { AnalysisDiff } from '../services/run-diff.ts';
import type { RegressionReason } from '../services/run-events.ts';

/** What changed against the earlier run of `--compare`; `reasons` is empty unless the page got worse. */
export interface Comparison {
  diff: AnalysisDiff;
  reasons: RegressionReason[];
}

/** `comparison` is there with --compare: null when the earlier run has no result for the URL. */
export type UrlOutcome = { url: string; analysis: Analysis; comparison?: Comparison | null } | { url: string; error: string };

/**
 * Never throws: an invalid URL, an unreachable page and even a bug in the engine become an error
 * outcome, so one bad URL in a list cannot stop the others.
 */
export async function analyzeTarget(analyze: Analyzer, input: string): Promise<UrlOutcome> {
  const target = parseTargetUrl(input);
  if (!target.ok) return { url: input.trim(), error: target.message };
  try {
    return { url: target.url, analysis: inCliWords(await analyze(target.url)) };
  } catch (error) {
    if (error instanceof FetchError) return { url: target.url, error: error.reason };
    return { url: target.url, error: `internal error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * The analysis as `--json` prints it: the API report's `data` without the stored-report fields, and
 * with --compare the diff (the API's, without report and run ids) and whether the page regressed.
 */
export function outcomeJson(outcome: UrlOutcome) {
  if ('error' in outcome) return { url: outcome.url, error: outcome.error };
  const { url, result, score, issues, page, results, generatedAt, rendered, lab, structuredData } = outcome.analysis;
  // `rendered` only with --render, as the API's report has it then; `lab` only with --lab (null when the
  // audit could not observe the page); `structured_data` always, as the API's report has it (null when
  // the page has none, docs/structured-data.md).
  const json = {
    url,
    result,
    score,
    issues,
    page,
    results,
    ...(rendered && { rendered }),
    ...(lab !== undefined && { lab }),
    structured_data: structuredData ?? null,
    generated_at: generatedAt.toISOString(),
  };
  if (outcome.comparison === undefined) return json;
  const comparison = outcome.comparison && { ...outcome.comparison.diff, regressed: outcome.comparison.reasons.length > 0 };
  return { ...json, comparison };
}
