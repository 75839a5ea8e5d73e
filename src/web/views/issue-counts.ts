// Issue counts by importance as the pages show them: a list beside a score, or a line in a list's row.
import type { IssueCounts } from '../../analysis/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatNumber, plural } from './format.ts';

/** The counts as a list; `noun` names what is counted in the list's label ("3 failed checks"). */
export function issueCountsList(issues: IssueCounts, noun: string): SafeHtml {
  return html`<ul class="issue-counts" aria-label="${plural(issues.high + issues.medium + issues.low, noun)}">
      <li class="issue issue--high"><span class="issue-count">${formatNumber(issues.high)}</span> high</li>
      <li class="issue issue--medium"><span class="issue-count">${formatNumber(issues.medium)}</span> medium</li>
      <li class="issue issue--low"><span class="issue-count">${formatNumber(issues.low)}</span> low</li>
    </ul>`;
}

const SHORT_NAMES = { high: 'high', medium: 'med', low: 'low' } as const;
const IMPORTANCES = ['high', 'medium', 'low'] as const;

/**
 * Small coloured pills, "3 high · 5 med · 2 low", for a list's row: short enough for a phone. Screen
 * readers hear the full word ("5 medium"); a zero is drawn quietly so the counts that matter stand out.
 */
export function issueCountsInline(issues: IssueCounts): SafeHtml {
  return html`<span class="pills">${IMPORTANCES.map((importance) => {
    const count = formatNumber(issues[importance]);
    return html`<span class="pill pill--${issues[importance] === 0 ? 'zero' : importance}"><span aria-hidden="true">${count} ${SHORT_NAMES[importance]}</span><span class="visually-hidden">${count} ${importance}</span></span>`;
  })}</span>`;
}
