// One gauge per category: the category's score as docs/checks.md defines it (scoring/score.ts), a small ring
// coloured by the verdict that score would get, its number in the ring and in its accessible name.
// Presentation attributes only, as score-ring.ts, so the Content-Security-Policy can refuse inline styles.
import type { CheckResult } from '../../analysis/types.ts';
import type { Category } from '../../checks/check.ts';
import { categoryScore, verdictFor } from '../../scoring/score.ts';
import { html, type SafeHtml } from '../html.ts';
import { CATEGORY_NAMES } from './format.ts';

function gauge(category: Category, score: number | null): SafeHtml {
  const name = CATEGORY_NAMES[category];
  const tone = score === null ? 'none' : verdictFor(score);
  const label = score === null ? `${name}: no check applies` : `${name}: ${score} out of 100`;
  return html`<li class="gauge gauge--${tone}" data-category="${category}">
  <svg class="gauge-ring" viewBox="0 0 64 64" width="72" height="72" role="img" aria-label="${label}">
    <circle class="gauge-track" cx="32" cy="32" r="26" fill="none" stroke-width="8"></circle>
    ${score !== null && score > 0 ? html`<circle class="gauge-arc" cx="32" cy="32" r="26" fill="none" stroke-width="8" pathLength="100" stroke-dasharray="${score} 100" transform="rotate(-90 32 32)"></circle>` : ''}
    <text class="gauge-value" x="32" y="33" text-anchor="middle" dominant-baseline="middle">${score === null ? '–' : score}</text>
  </svg>
  <a class="gauge-name" href="#category-${category}">${name}</a>
</li>`;
}

export function categoryGauges(results: Readonly<Record<string, CheckResult>>, categories: readonly Category[]): SafeHtml {
  return html`<ul class="gauges">${categories.map((category) => gauge(category, categoryScore(results, category)))}</ul>`;
}
