// How a report's analysis state shows on the dashboard and report pages: a queued or running
// analysis, a failed one, and a report that has had no successful run yet; and the score chip the
// lists share. Pages that show an analysis in progress refresh themselves (a meta refresh: no script needed).
import type { Verdict } from '../../analysis/types.ts';
import type { ReportSummary } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { VERDICT_NAMES } from './format.ts';

/** Seconds between reloads of a page that waits for an analysis: most finish within a few. */
export const ANALYSIS_REFRESH_SECONDS = 3;

export const STATE_NAMES = { queued: 'Queued', running: 'Analysing', done: 'Done', failed: 'Failed' } as const;

export function analysisInProgress(report: Pick<ReportSummary, 'state'>): boolean {
  return report.state === 'queued' || report.state === 'running';
}

/** A score and its verdict as a chip ("87 · Good"), or `none` for something not scored. */
export function verdictChip(scored: { score: number | null; result: Verdict | null }, none: SafeHtml = html``): SafeHtml {
  if (scored.score === null || scored.result === null) return none;
  return html`<span class="verdict-chip verdict-chip--${scored.result}">${scored.score} · ${VERDICT_NAMES[scored.result]}</span>`;
}

/** The score chip of a list row: the verdict when there is a run, else the state; plus the state while one is pending or failed. */
export function scoreChip(report: ReportSummary): SafeHtml {
  const verdict = verdictChip(report);
  if (report.state === 'done') return verdict;
  return html`${verdict} <span class="state-chip state-chip--${report.state}">${STATE_NAMES[report.state]}</span>`;
}

/** A notice above a report's results that says what its latest analysis is doing or why it failed. */
export function analysisNotice(report: ReportSummary): SafeHtml {
  const previous = report.result === null ? '' : ' The results below are from the previous analysis.';
  switch (report.state) {
    case 'queued':
      return html`<p class="notice" role="status">The analysis is queued and starts soon; this page refreshes itself.${previous}</p>`;
    case 'running':
      return html`<p class="notice" role="status">The page is being analysed; this page refreshes itself.${previous}</p>`;
    case 'failed':
      return html`<p class="notice notice--error" role="status">The latest analysis failed: ${report.last_error?.message ?? 'no reason was recorded'}.${previous}</p>`;
    case 'done':
      return html``;
    default:
      throw new Error(`unknown state ${JSON.stringify(report.state satisfies never)}`);
  }
}
