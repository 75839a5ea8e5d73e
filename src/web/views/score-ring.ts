// The score as a ring, its verdict in words below it: an inline SVG whose arc is score/100 of the circle
// (pathLength makes the circumference 100, so the dash is the score). Presentation attributes, not style
// attributes, so the Content-Security-Policy can refuse inline styles; the colour comes from the stylesheet by verdict.
import type { Verdict } from '../../analysis/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { VERDICT_NAMES } from './format.ts';

function scoreRing(score: number, verdict: Verdict): SafeHtml {
  const arc = Math.max(0, Math.min(100, Math.round(score)));
  return html`<svg class="score-ring score-ring--${verdict}" viewBox="0 0 120 120" width="140" height="140" role="img" aria-label="Score ${arc} out of 100">
  <circle class="score-ring-track" cx="60" cy="60" r="52" fill="none" stroke-width="12"></circle>
  ${arc > 0 ? html`<circle class="score-ring-arc" cx="60" cy="60" r="52" fill="none" stroke-width="12" pathLength="100" stroke-dasharray="${arc} 100" transform="rotate(-90 60 60)"></circle>` : ''}
  <text class="score-ring-value" x="60" y="62" text-anchor="middle" dominant-baseline="middle">${arc}</text>
  <text class="score-ring-scale" x="60" y="88" text-anchor="middle">/ 100</text>
</svg>`;
}

/**
 * The ring with the verdict in words below it, as a report's or a crawl's summary shows its score.
 * `reason`: why the verdict is not the one the score alone gives (scoring/score.ts, verdictReason), said
 * under it; null when the score explains it.
 */
export function scoreWithVerdict(score: number, verdict: Verdict, reason: string | null = null): SafeHtml {
  return html`${scoreRing(score, verdict)}
    <p class="verdict verdict--${verdict}"><span class="verdict-label">${VERDICT_NAMES[verdict]}</span></p>
    ${reason === null ? '' : html`<p class="verdict-reason">${reason}</p>`}`;
}
