// The report page's history (shown from the second run on): the score over time, what changed since
// the previous run, the runs to open, and the form to compare two of them.
import type { RunDiff } from '../../services/run-diff.ts';
import type { RunSummary } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatNumber } from './format.ts';
import { runChanges } from './run-changes.ts';
import { compareForm, runsTable } from './run-list.ts';
import { scoreChart } from './score-chart.ts';

export interface ReportHistoryOptions {
  reportId: number;
  /** The newest runs, newest first. */
  runs: readonly RunSummary[];
  /** How many runs the report keeps in all. */
  runsCount: number;
  /** The latest run against the one before it. */
  changes: RunDiff | null;
}

export function reportHistory({ reportId, runs, runsCount, changes }: ReportHistoryOptions): SafeHtml {
  return html`${changes ? runChanges(reportId, changes) : ''}
<section class="history panel" aria-labelledby="history-heading">
  <h2 id="history-heading">Score over time</h2>
  ${scoreChart({ reportId, runs: [...runs].reverse() })}
  <details class="runs-details">
    <summary>All runs shown (${formatNumber(runs.length)})</summary>
    ${runsTable(reportId, runs, runs[0]?.id)}
  </details>
  ${runsCount > runs.length ? html`<p><a href="/reports/${reportId}/runs">All ${formatNumber(runsCount)} runs</a></p>` : ''}
  ${compareForm({ reportId, runs })}
</section>`;
}
