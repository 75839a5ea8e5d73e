// The whole pipeline for one URL: fetch the page and its origin facts, then analyse.
// Throws FetchError (with a reason for people) when the page cannot be fetched as HTML.
import { fetchPageBody } from '../fetch/fetch-page.ts';
import { decodePage } from '../fetch/decode-page.ts';
import { gatherOriginFacts } from '../fetch/origin-facts.ts';
import type { FetchOptions } from '../fetch/options.ts';
import type { CheckThresholds } from '../checks/thresholds.ts';
import type { CheckFailureLogger } from '../scoring/run-checks.ts';
import type { Analysis } from './types.ts';
import { analyzePage } from './analyze-page.ts';
import type { AnalysisPool } from './analysis-pool.ts';

export interface AnalyzerOptions {
  fetch: FetchOptions;
  thresholds: CheckThresholds;
  onCheckFailure?: CheckFailureLogger;
  /** Parse and check on these worker threads; without, on the calling thread. */
  pool?: AnalysisPool;
}

export type Analyzer = (url: string) => Promise<Analysis>;

export function createAnalyzer(options: AnalyzerOptions): Analyzer {
  return async (url) => {
    // Origin facts for the requested origin start at once, beside the page fetch; a redirect to
    // another origin gathers that origin's facts instead.
    const requestedOrigin = new URL(url).origin;
    const earlyOriginFacts = gatherOriginFacts(url, options.fetch);
    // Decoded where it is parsed: on an analysis thread when there is a pool (decode-page.ts).
    const page = await fetchPageBody(url, options.fetch);
    const finalOrigin = new URL(page.finalUrl).origin;
    const origin =
      finalOrigin === requestedOrigin ? await earlyOriginFacts : await gatherOriginFacts(page.finalUrl, options.fetch);
    const generatedAt = new Date();
    if (options.pool) {
      return options.pool.analyze({ page, origin, thresholds: options.thresholds, generatedAt }, options.onCheckFailure);
    }
    return analyzePage(decodePage(page), origin, options.thresholds, options.onCheckFailure, generatedAt);
  };
}
