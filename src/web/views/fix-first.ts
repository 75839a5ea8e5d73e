// "Fix these first": the failed checks that would raise the score most, so a reader knows where to start.
// What a fix wins is the score (scoring/score.ts) with that check passed, less the score now; checks of
// equal gain go by importance, then by id, so the list never changes order between two views.
// Words: "points" are always points of the 0-100 score (+12 points); what a check's importance counts
// for in it (10, 5 or 2) is its "weight" (docs/web.md).
import type { CheckResult } from '../../analysis/types.ts';
import type { Importance } from '../../checks/check.ts';
import { checksById } from '../../checks/index.ts';
// scoring/score.ts names the weights WEIGHTS; they are not points of the score.
import { WEIGHTS as WEIGHTS, scoreResults } from '../../scoring/score.ts';
import { html, type SafeHtml } from '../html.ts';
import { CATEGORY_NAMES, IMPORTANCE_NAMES, plural } from './format.ts';

/** Enough to act on this week; the rest are listed by category further down. */
const SHOWN = 5;

interface Fix {
  id: string;
  result: CheckResult;
  /** Score points gained, exactly (for ranking) and as the score would show it (rounded). */
  exactGain: number;
  shownGain: number;
}

function fixes(results: Readonly<Record<string, CheckResult>>): Fix[] {
  const applicable = Object.values(results).filter((result) => result.passed !== null);
  const totalWeight = applicable.reduce((sum, result) => sum + WEIGHTS[result.importance], 0);
  const now = scoreResults(results).score;
  return Object.entries(results)
    .filter(([, result]) => result.passed === false)
    .map(([id, result]) => ({
      id,
      result,
      exactGain: totalWeight === 0 ? 0 : (100 * WEIGHTS[result.importance]) / totalWeight,
      shownGain: scoreResults({ ...results, [id]: { ...result, passed: true } }).score - now,
    }))
    .sort((a, b) => b.exactGain - a.exactGain || importanceRank(a.result.importance) - importanceRank(b.result.importance) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const IMPORTANCE_ORDER: readonly Importance[] = ['high', 'medium', 'low'];
function importanceRank(importance: Importance): number {
  return IMPORTANCE_ORDER.indexOf(importance);
}

function fixItem({ id, result, shownGain }: Fix): SafeHtml {
  const title = checksById.get(id)?.failureTitle ?? id;
  const gain = shownGain >= 1 ? `+${plural(shownGain, 'point')}` : '+less than 1 point';
  return html`<li class="fix" data-check="${id}">
  <a class="fix-title" href="#check-${id}">${title}</a>
  <span class="fix-meta"><span class="fix-gain">${gain}</span> · <span class="importance importance--${result.importance}">${IMPORTANCE_NAMES[result.importance]} importance</span> (weight ${WEIGHTS[result.importance]}) · ${CATEGORY_NAMES[result.category]}</span>
</li>`;
}

export function fixFirst(results: Readonly<Record<string, CheckResult>>): SafeHtml {
  const all = fixes(results);
  const shown = all.slice(0, SHOWN);
  const body =
    all.length === 0
      ? html`<p class="fix-none">Nothing to fix: every check that applies to the page passed.</p>`
      : html`<ol class="fixes">${shown.map(fixItem)}</ol>
  ${all.length > shown.length ? html`<p class="fix-more">${plural(all.length - shown.length, 'more failed check')} below, by category.</p>` : ''}`;
  return html`<section class="fix-first" aria-labelledby="fix-first-heading">
  <h2 id="fix-first-heading">Fix these first</h2>
  ${body}
</section>`;
}
