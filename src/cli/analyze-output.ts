// What `analyze` prints once every URL is done: reports (or JSON) on stdout, problems on stderr.
import { checkBudget } from './budget.ts';
import { renderComparison } from './comparison-text.ts';
import { gateFailures, type Gates } from './exit-status.ts';
import { renderNotAnalyzed, renderReport } from './report-text.ts';
import { renderRenderedText } from './rendered-text.ts';
import { renderSummaryTable } from './summary-table.ts';
import { outcomeJson, type UrlOutcome } from './url-outcome.ts';
import type { Style } from './terminal-text.ts';

function renderOutcome(outcome: UrlOutcome, style: Style): string {
  if ('error' in outcome) return renderNotAnalyzed(outcome.url, outcome.error, style);
  const report = renderReport(outcome.analysis, style) + renderRenderedText(outcome.analysis.rendered, style);
  return outcome.comparison === undefined ? report : report + renderComparison(outcome.comparison, style);
}

/** One URL: its report. Several: each report in the order given, then the summary table. */
export function renderText(outcomes: readonly UrlOutcome[], style: Style): string {
  if (outcomes.length === 1) return renderOutcome(outcomes[0], style);
  const rule = `\n${style.dim('─'.repeat(60))}\n\n`;
  const reports = outcomes.map((outcome) => renderOutcome(outcome, style)).join(rule);
  return `${reports}${rule}${style.bold('Summary')}\n\n${renderSummaryTable(outcomes, style)}`;
}

/**
 * Characters JSON.stringify writes raw that a terminal may act on: DEL, the C1 controls (U+009B is
 * CSI, as ESC [ is), line and paragraph separators, and the bidi embeddings, overrides and isolates,
 * the ones the text report strips. They occur only inside strings, so escaping them in the text keeps
 * the JSON, and the page's text in it, exactly as it was (as JSON.stringify does for the C0 controls).
 */
export const RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One URL: one object. Several: an array, in the order given. */
export function renderJson(outcomes: readonly UrlOutcome[]): string {
  const value = outcomes.length === 1 ? outcomeJson(outcomes[0]) : outcomes.map(outcomeJson);
  const json = JSON.stringify(value, null, 2).replace(RAW_CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${json}\n`;
}

/** Lines for stderr, so a CI log says why the exit code is not 0 even when stdout goes to a file. */
export function renderProblems(outcomes: readonly UrlOutcome[], gates: Gates): string {
  const notAnalyzed = outcomes.filter((outcome) => 'error' in outcome).length;
  const lines = gateFailures(outcomes, gates).map((failure) => `pagegrade: gate failed: ${failure}`);
  const budget = gates.budget;
  // What a budget could not judge (a category or check that does not apply) is said, and fails nothing.
  if (budget) {
    for (const outcome of outcomes) if ('analysis' in outcome) lines.push(...checkBudget(outcome.analysis, budget).unchecked.map((note) => `pagegrade: ${note}`));
  }
  if (notAnalyzed > 0) lines.unshift(`pagegrade: ${notAnalyzed} of ${outcomes.length} URLs could not be analysed.`);
  return lines.map((line) => `${line}\n`).join('');
}
