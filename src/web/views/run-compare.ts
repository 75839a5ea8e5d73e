// Two runs of a report side by side as a diff: the scores and verdicts, then the checks that newly
// fail, those fixed, and those failing in both, each with what it measured in either run.
import type { CheckResult } from '../../analysis/types.ts';
import { checksById } from '../../checks/index.ts';
import type { RunDiff } from '../../services/run-diff.ts';
import type { Report, Run, RunSummary } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { renderValue } from './check-value.ts';
import { IMPORTANCE_NAMES, shortUrl, timeElement } from './format.ts';
import type { BrandView } from './brand.ts';
import { layout, type HeaderNav } from './layout.ts';
import { byImportance, checkTitle, verdictChange } from './run-changes.ts';
import { compareForm, runName } from './run-list.ts';
import { scoreDelta } from './score-delta.ts';

export interface ComparePageOptions {
  report: Pick<Report, 'id' | 'url'>;
  nav: HeaderNav;
  /** Newest first, for the form's selects. */
  runs: readonly RunSummary[];
  /** Absent when there is nothing to compare (one run) or the choice was refused (`error`). */
  compared?: { from: Run; to: Run; diff: RunDiff };
  error?: string;
  brand: BrandView;
}

interface CheckPair {
  id: string;
  importance: CheckResult['importance'];
  from: unknown;
  to: unknown;
}

/** What a check measured, in the words of its labels (as on the report page). */
function value(checkId: string, measured: unknown): SafeHtml {
  return measured === null || measured === undefined ? html`<span class="none">nothing measured</span>` : renderValue(measured, checksById.get(checkId)?.labels);
}

function runLink(reportId: number, run: Run): SafeHtml {
  return html`<a href="/reports/${reportId}/runs/${run.id}">${runName(run)}</a>`;
}

function checksTable(caption: string, checks: readonly CheckPair[], failing: boolean, runs: { from: Run; to: Run }): SafeHtml {
  return html`<div class="table-wrap"><table class="list-table compare-table">
  <caption class="visually-hidden">${caption}</caption>
  <thead><tr><th scope="col">Check</th><th scope="col">${runName(runs.from)}</th><th scope="col">${runName(runs.to)}</th></tr></thead>
  <tbody>${byImportance(checks).map((check) => html`<tr id="compare-${check.id}">
    <td data-label="Check"><span class="importance importance--${check.importance}">${IMPORTANCE_NAMES[check.importance]}</span> ${checkTitle(check.id, failing)}</td>
    <td data-label="${runName(runs.from)}">${value(check.id, check.from)}</td>
    <td data-label="${runName(runs.to)}">${value(check.id, check.to)}</td>
  </tr>`)}</tbody>
</table></div>`;
}

function group(heading: string, id: string, checks: readonly CheckPair[], failing: boolean, empty: string, runs: { from: Run; to: Run }): SafeHtml {
  return html`<section class="compare-group" aria-labelledby="${id}">
  <h2 id="${id}">${heading} <span class="count">(${checks.length})</span></h2>
  ${checks.length === 0 ? html`<p class="none">${empty}</p>` : checksTable(heading, checks, failing, runs)}
</section>`;
}

function comparison(reportId: number, { from, to, diff }: NonNullable<ComparePageOptions['compared']>): SafeHtml {
  const stillFailing: CheckPair[] = diff.still_failing.map((id) => ({
    id,
    importance: (to.results[id] ?? from.results[id]).importance,
    from: from.results[id]?.value ?? null,
    to: to.results[id]?.value ?? null,
  }));
  const runs = { from, to };
  return html`<section class="panel compare-summary" aria-labelledby="compare-summary-heading">
  <h2 id="compare-summary-heading">${runLink(reportId, from)} → ${runLink(reportId, to)}</h2>
  <p>${timeElement(from.generated_at)} → ${timeElement(to.generated_at)}</p>
  <p>Score ${from.score} → ${to.score} ${scoreDelta(diff.score_delta)}, ${verdictChange(diff)}.</p>
</section>
${group('Newly failing', 'compare-newly-failing', diff.newly_failed, true, 'No check newly fails.', runs)}
${group('Fixed', 'compare-fixed', diff.fixed, false, 'No check was fixed.', runs)}
${group('Still failing', 'compare-still-failing', stillFailing, true, 'No check fails in both runs.', runs)}`;
}

export function comparePage({ report, nav, runs, compared, error, brand }: ComparePageOptions): SafeHtml {
  const title = compared
    ? `${runName(compared.from)} and ${runName(compared.to)} of the SEO report for ${shortUrl(report.url)} · ${brand.name}`
    : `Compare runs of the SEO report for ${shortUrl(report.url)} · ${brand.name}`;
  return layout({
    title,
    brand,
    description: `What changed between two runs of the SEO report for ${report.url}.`,
    nav,
    main: html`<article class="report compare">
<header class="report-header">
  <p class="eyebrow">Comparing runs</p>
  <h1 class="report-url">${shortUrl(report.url, 200)}</h1>
  <p class="report-meta"><a href="/reports/${report.id}">Back to the report</a> · <a href="/reports/${report.id}/runs">All runs</a></p>
</header>
${runs.length < 2
  ? html`<p class="empty">This report has one run so far: there is nothing to compare yet.</p>`
  : html`${compared ? comparison(report.id, compared) : ''}
<section class="panel">${compareForm({ reportId: report.id, runs, from: compared?.from.id, to: compared?.to.id, error })}</section>`}
</article>`,
  });
}
