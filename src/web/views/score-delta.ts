// A change of score as an arrow and a number ("▲ 5", "▼ 12", "–"): the arrow is decoration, so a
// screen reader hears the sentence in the visually hidden text instead.
import { html, type SafeHtml } from '../html.ts';
import { formatNumber } from './format.ts';

/** null: there is no earlier run to compare with. */
export function scoreDelta(delta: number | null): SafeHtml {
  if (delta === null) {
    return html`<span class="delta delta--none"><span aria-hidden="true">–</span><span class="visually-hidden">no previous run</span></span>`;
  }
  if (delta === 0) {
    return html`<span class="delta delta--same"><span aria-hidden="true">± 0</span><span class="visually-hidden">score unchanged</span></span>`;
  }
  const up = delta > 0;
  const amount = formatNumber(Math.abs(delta));
  return html`<span class="delta delta--${up ? 'up' : 'down'}"><span aria-hidden="true">${up ? '▲' : '▼'} ${amount}</span><span class="visually-hidden">score ${up ? 'up' : 'down'} ${amount}</span></span>`;
}
