// A report's runs as a table (each opens its run page) and the form that picks two to compare: a GET
// form with two selects, so comparing needs no script.
import type { RunSummary } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { VERDICT_NAMES, formatNumber, timeElement } from './format.ts';
import { selectOption } from './list-controls.ts';

export const TRIGGER_NAMES: Record<RunSummary['trigger'], string> = {
  create: 'created',
  regenerate: 'analysed again',
  schedule: 'scheduled',
  crawl: 'site crawl',
};

/**
 * A run as the pages name it: its number among the report's runs, then the id that its address and the
 * API use, so the label and the link agree: /reports/3/runs/24 is "Run 5 (#24)" (docs/web.md).
 */
export function runName(run: Pick<RunSummary, 'id' | 'number'>): string {
  return `Run ${run.number} (#${run.id})`;
}

/** Newest first, as listed. `currentId`: the run the page shows, marked as such. */
export function runsTable(reportId: number, runs: readonly RunSummary[], currentId?: number): SafeHtml {
  return html`<div class="table-wrap"><table class="list-table runs-table">
  <caption class="visually-hidden">Runs of this report, newest first</caption>
  <thead><tr><th scope="col">Run</th><th scope="col">Score</th><th scope="col">Failed checks</th><th scope="col">Trigger</th><th scope="col">Generated</th></tr></thead>
  <tbody>${runs.map((run) => html`<tr>
    <td data-label="Run">${run.id === currentId
      ? html`<strong aria-current="page">${runName(run)}</strong> <span class="muted">shown</span>`
      : html`<a href="/reports/${reportId}/runs/${run.id}">${runName(run)}</a>`}</td>
    <td data-label="Score"><span class="verdict-chip verdict-chip--${run.result}">${run.score} · ${VERDICT_NAMES[run.result]}</span></td>
    <td data-label="Failed checks">${formatNumber(run.issues.high)} high, ${formatNumber(run.issues.medium)} medium, ${formatNumber(run.issues.low)} low</td>
    <td data-label="Trigger">${TRIGGER_NAMES[run.trigger]}</td>
    <td data-label="Generated">${timeElement(run.generated_at)}</td>
  </tr>`)}</tbody>
</table></div>`;
}

function runChoice(run: RunSummary, selected: boolean): SafeHtml {
  return selectOption(run.id, `${runName(run)} · ${run.score} (${VERDICT_NAMES[run.result]})`, selected);
}

export interface CompareFormOptions {
  reportId: number;
  /** Newest first. */
  runs: readonly RunSummary[];
  from?: number;
  to?: number;
  error?: string;
}

/** Defaults: the latest run against the one before it. */
export function compareForm({ reportId, runs, from, to, error }: CompareFormOptions): SafeHtml {
  const toId = to ?? runs[0]?.id;
  const fromId = from ?? runs[1]?.id;
  return html`<form method="get" action="/reports/${reportId}/compare" class="compare-form" aria-labelledby="compare-form-heading">
  <h3 id="compare-form-heading">Compare two runs</h3>
  ${error ? html`<p class="form-error" id="compare-error" role="alert">${error}</p>` : ''}
  <div class="field">
    <label for="compare-from">Older run</label>
    <select id="compare-from" name="from"${error ? html` aria-invalid="true" aria-describedby="compare-error"` : ''}>${runs.map((run) => runChoice(run, run.id === fromId))}</select>
  </div>
  <div class="field">
    <label for="compare-to">Newer run</label>
    <select id="compare-to" name="to">${runs.map((run) => runChoice(run, run.id === toId))}</select>
  </div>
  <div class="form-actions"><button type="submit" class="button">Compare</button></div>
</form>`;
}
