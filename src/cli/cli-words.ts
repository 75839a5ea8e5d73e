// Everything the command line writes names its own options, never the API's parameters. The checks
// word their reasons for the API (a report made there says `render=1`); the few that name a parameter
// are said here in the CLI's words, once, where an analysis enters the CLI, so the text report,
// --json, every --output file and stderr agree.
import type { Analysis } from '../analysis/types.ts';
import { NO_LAB_AUDIT_REASON } from '../checks/lab-audit.ts';
import { NOT_RENDERED_REASON } from '../checks/seo/javascript-dependency.ts';

/** check id -> the API's reason -> the CLI's */
const CLI_REASONS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ['javascript_dependency', new Map([[NOT_RENDERED_REASON, 'The page was not rendered in a browser (run analyze with --render).']])],
]);

/**
 * Reasons any check may give, the API's -> the CLI's: every lab and accessibility check without a lab
 * audit (docs/lab.md, "New checks").
 */
const CLI_REASONS_OF_ANY_CHECK: ReadonlyMap<string, string> = new Map([
  [NO_LAB_AUDIT_REASON, 'No lab audit was made (run analyze with --lab).'],
]);

function cliReason(id: string, reason: string): string | undefined {
  return CLI_REASONS.get(id)?.get(reason) ?? CLI_REASONS_OF_ANY_CHECK.get(reason);
}

export function inCliWords(analysis: Analysis): Analysis {
  const reworded = Object.entries(analysis.results).flatMap(([id, result]) => {
    const reason = result.reason === undefined ? undefined : cliReason(id, result.reason);
    return reason === undefined ? [] : [[id, { ...result, reason }] as const];
  });
  if (reworded.length === 0) return analysis;
  // The packed copy, if any, said the old words: the results changed, so it goes.
  return { ...analysis, results: { ...analysis.results, ...Object.fromEntries(reworded) }, packedResults: undefined };
}
