// Everything the command line writes names its own options, never the API's parameters. The checks
// word their reasons for the API (a report made there says `render=1`); the few that name a parameter
// are said here in the CLI's words, once, where an analysis enters the CLI, so the text report,
// --json, every --output file and stderr agree.
import type { Analysis } from '../analysis/types.ts';
import { NOT_RENDERED_REASON } from '../checks/seo/javascript-dependency.ts';

/** check id -> the API's reason -> the CLI's */
const CLI_REASONS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ['javascript_dependency', new Map([[NOT_RENDERED_REASON, 'The page was not rendered in a browser (run analyze with --render).']])],
]);

export function inCliWords(analysis: Analysis): Analysis {
  let results = analysis.results;
  for (const [id, reasons] of CLI_REASONS) {
    const result = results[id];
    const reason = result?.reason === undefined ? undefined : reasons.get(result.reason);
    if (reason !== undefined) results = { ...results, [id]: { ...result, reason } };
  }
  // The packed copy, if any, said the old words: the results changed, so it goes.
  return results === analysis.results ? analysis : { ...analysis, results, packedResults: undefined };
}
