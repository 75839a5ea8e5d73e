// The report page's "What JavaScript changes" (render=1): the raw HTML against the page after
// JavaScript, one row per thing compared, the changed rows marked, then the links only scripts add.
import { comparisonRows, renderFailed, type Rendered } from '../../render/compare-rendered.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatNumber, plural } from './format.ts';

export function renderedSection(rendered: Rendered | null | undefined): SafeHtml | '' {
  if (!rendered) return '';
  const heading = html`<h2 id="rendered-heading">What JavaScript changes</h2>`;
  if (renderFailed(rendered)) {
    return html`<section class="rendered" aria-labelledby="rendered-heading">${heading}
  <p class="notice notice--error">The page could not be rendered in the browser: ${rendered.error}</p>
</section>`;
  }
  const rows = comparisonRows(rendered);
  const changed = rows.filter((row) => row.changed);
  const lead = changed.length === 0
    ? 'Search engines see the same page before and after JavaScript runs.'
    : `JavaScript changes ${changed.length} of ${rows.length}: ${changed.map((row) => inSentence(row.label)).join(', ')}.`;
  const onlyRendered = rendered.links.only_rendered;
  const links = onlyRendered.length === 0
    ? ''
    : html`<details class="rendered-links"><summary>Links only after JavaScript (${plural(rendered.links.internal.only_rendered, 'internal link')})</summary>
  <ul>${onlyRendered.map((url) => html`<li><span class="url">${url}</span></li>`)}</ul></details>`;
  return html`<section class="rendered" aria-labelledby="rendered-heading">${heading}
  <p>${lead}</p>
  <div class="table-wrap"><table class="list-table rendered-table">
  <caption class="visually-hidden">The raw HTML against the page after JavaScript</caption>
  <thead><tr><th scope="col"></th><th scope="col">Raw HTML</th><th scope="col">After JavaScript</th></tr></thead>
  <tbody>${rows.map((row) => html`<tr class="${row.changed ? 'rendered-row rendered-row--changed' : 'rendered-row'}">
    <th scope="row">${row.label}${row.changed ? html` <span class="rendered-mark">changed</span>` : ''}</th>
    <td data-label="Raw HTML">${row.raw}</td>
    <td data-label="After JavaScript">${row.changed ? row.rendered : html`<span class="muted">same</span>`}</td>
  </tr>`)}</tbody>
</table></div>
  ${links}
  <p class="muted">Links: ${formatNumber(rendered.links.raw)} in the raw HTML, ${formatNumber(rendered.links.rendered)} after JavaScript. The other checks judge the raw HTML, as search engines first see it.</p>
</section>`;
}

/** "Meta description" -> "meta description"; an acronym ("JSON-LD types") stays as it is. */
function inSentence(label: string): string {
  return /^[A-Z]{2}/.test(label) ? label : label.toLowerCase();
}
