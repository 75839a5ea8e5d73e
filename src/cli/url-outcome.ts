// One URL of an `analyze` run: analysed, or the reason it could not be.
import { parseTargetUrl } from '../analysis/target-url.ts';
import type { Analysis } from '../analysis/types.ts';
import type { Analyzer } from '../analysis/analyze-url.ts';
import { FetchError } from '../fetch/fetch-error.ts';

export type UrlOutcome = { url: string; analysis: Analysis } | { url: string; error: string };

/**
 * Never throws: an invalid URL, an unreachable page and even a bug in the engine become an error
 * outcome, so one bad URL in a list cannot stop the others.
 */
export async function analyzeTarget(analyze: Analyzer, input: string): Promise<UrlOutcome> {
  const target = parseTargetUrl(input);
  if (!target.ok) return { url: input.trim(), error: target.message };
  try {
    return { url: target.url, analysis: await analyze(target.url) };
  } catch (error) {
    if (error instanceof FetchError) return { url: target.url, error: error.reason };
    return { url: target.url, error: `internal error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The analysis as `--json` prints it: the API report's `data` without the stored-report fields. */
export function outcomeJson(outcome: UrlOutcome) {
  if ('error' in outcome) return { url: outcome.url, error: outcome.error };
  const { url, result, score, issues, page, results, generatedAt } = outcome.analysis;
  return { url, result, score, issues, page, results, generated_at: generatedAt.toISOString() };
}
