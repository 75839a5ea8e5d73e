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

/** "3 high, 5 medium, 2 low". */
export function issueCountsInline(issues: IssueCounts): SafeHtml {
  return html`<span class="issue-inline issue-inline--high">${formatNumber(issues.high)} high</span>,
    <span class="issue-inline">${formatNumber(issues.medium)} medium</span>, <span class="issue-inline">${formatNumber(issues.low)} low</span>`;
}
