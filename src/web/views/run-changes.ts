// "What changed since the previous run" on the report page: the score and verdict change, the checks
// that newly fail and those fixed (titled from the check catalogue), and how many still fail, with a
// link to the full comparison.
import { checksById } from '../../checks/index.ts';
import type { RunDiff } from '../../services/run-diff.ts';
import { html, type SafeHtml } from '../html.ts';
import { IMPORTANCE_NAMES, VERDICT_NAMES, plural, timeElement } from './format.ts';
import { runName } from './run-list.ts';
import { scoreDelta } from './score-delta.ts';

type ChangedCheck = RunDiff['newly_failed'][number];

const IMPORTANCE_ORDER = { high: 0, medium: 1, low: 2 } as const;

/** Most important first; within one importance, the check registry's order (the diff's). */
export function byImportance<Check extends { importance: keyof typeof IMPORTANCE_ORDER }>(checks: readonly Check[]): Check[] {
  return [...checks].sort((a, b) => IMPORTANCE_ORDER[a.importance] - IMPORTANCE_ORDER[b.importance]);
}

/** The catalogue's words for a check as it now stands; the id for a check the catalogue no longer has. */
export function checkTitle(id: string, failing: boolean): string {
  const definition = checksById.get(id);
  if (!definition) return id;
  return failing ? definition.failureTitle : definition.title;
}

function compareHref(reportId: number, diff: Pick<RunDiff, 'from' | 'to'>): string {
  return `/reports/${reportId}/compare?from=${diff.from.id}&to=${diff.to.id}`;
}

function changedList(checks: readonly ChangedCheck[], failing: boolean, empty: string, linkChecks: boolean): SafeHtml {
  if (checks.length === 0) return html`<p class="none">${empty}</p>`;
  return html`<ul class="changed-checks">${byImportance(checks).map((check) => {
    const title = checkTitle(check.id, failing);
    return html`<li><span class="importance importance--${check.importance}">${IMPORTANCE_NAMES[check.importance]}</span>
    ${linkChecks ? html`<a href="#check-${check.id}">${title}</a>` : title}</li>`;
  })}</ul>`;
}

/** The verdict line: "Good → Decent" when it changed, else "still Good". */
export function verdictChange(diff: Pick<RunDiff, 'from' | 'to' | 'result_changed'>): SafeHtml {
  return diff.result_changed
    ? html`verdict <strong>${VERDICT_NAMES[diff.from.result]} → ${VERDICT_NAMES[diff.to.result]}</strong>`
    : html`verdict still <strong>${VERDICT_NAMES[diff.to.result]}</strong>`;
}

export function runChanges(reportId: number, diff: RunDiff): SafeHtml {
  return html`<section class="run-changes panel" aria-labelledby="run-changes-heading">
  <h2 id="run-changes-heading">What changed since the previous run</h2>
  <p class="run-changes-summary">${runName(diff.from)}, ${timeElement(diff.from.generated_at)} → ${runName(diff.to)}, ${timeElement(diff.to.generated_at)}:
    score ${diff.from.score} → ${diff.to.score} ${scoreDelta(diff.score_delta)}, ${verdictChange(diff)}.</p>
  <div class="run-changes-columns">
    <div>
      <h3>Newly failing <span class="count">(${diff.newly_failed.length})</span></h3>
      ${changedList(diff.newly_failed, true, 'No check newly fails.', true)}
    </div>
    <div>
      <h3>Fixed <span class="count">(${diff.fixed.length})</span></h3>
      ${changedList(diff.fixed, false, 'No check was fixed.', true)}
    </div>
  </div>
  <p>${diff.still_failing.length === 0 ? 'No check failed in both runs.' : `${plural(diff.still_failing.length, 'check')} still ${diff.still_failing.length === 1 ? 'fails' : 'fail'}.`}
    <a href="${compareHref(reportId, diff)}">Compare the two runs in full</a></p>
</section>`;
}
