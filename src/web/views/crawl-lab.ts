// A lab crawl's section on its page (docs/lab.md, "Lab audits of a crawl"): the profile, how many of
// the chosen pages were audited, and a row per URL template with the 75th percentile of its pages'
// LCP, CLS and TBT (each with its band: the web-vitals edges the lab checks use) and their mean
// accessibility score. Each audited page's report has the rest (its "Lab" section). Built from the
// existing table and verdict-chip styles.
import { BAND_NAMES, BAND_TONES, METRIC_EDGES, bandOf, formatMetric } from '../../lab/lab-display.ts';
import type { LabMetrics } from '../../lab/lab-types.ts';
import type { CrawlLab } from '../../services/crawl-view.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatNumber, plural } from './format.ts';

const PROFILE_NAMES: Record<CrawlLab['profile'], string> = { mobile: 'a phone (mobile profile)', desktop: 'a desktop computer (desktop profile)' };

/** "4,690 ms" with its band ("Poor"), or a muted dash when none of the template's pages measured it. */
function metricCell(label: string, key: keyof LabMetrics, value: number | null): SafeHtml {
  if (value === null) return html`<td data-label="${label}"><span class="none">not measured</span></td>`;
  const edges = METRIC_EDGES[key];
  const band = edges === undefined ? null : bandOf(value, edges);
  const name = band === null ? '' : BAND_NAMES[band];
  return html`<td data-label="${label}">${formatMetric(key, value)}${band === null
    ? ''
    : html` <span class="verdict-chip verdict-chip--${BAND_TONES[band]} lab-band">${name.charAt(0).toUpperCase()}${name.slice(1)}</span>`}</td>`;
}

function templateRows(lab: CrawlLab): SafeHtml[] {
  return lab.templates.map((template) => html`<tr data-template="${template.pattern}">
    <td data-label="URL template"><code>${template.pattern}</code></td>
    <td data-label="Pages">${formatNumber(template.pages)}</td>
    ${metricCell('LCP (p75)', 'lcp_ms', template.lcp_ms_p75)}
    ${metricCell('CLS (p75)', 'cls', template.cls_p75)}
    ${metricCell('TBT (p75)', 'tbt_ms', template.tbt_ms_p75)}
    <td data-label="Accessibility">${template.accessibility_score === null ? html`<span class="none">no rule applied</span>` : `${template.accessibility_score}/100`}</td>
  </tr>`);
}

/** Empty for a crawl started without lab=1. */
export function crawlLabSection(lab: CrawlLab | null, running: boolean): SafeHtml | '' {
  if (lab === null) return '';
  const done = running
    ? `${plural(lab.pages, 'page')} audited so far of up to ${formatNumber(lab.lab_pages)}.`
    : `${plural(lab.pages, 'page')} audited of up to ${formatNumber(lab.lab_pages)}.`;
  return html`<section class="crawl-lab" id="lab" aria-labelledby="lab-heading">
  <h2 id="lab-heading">Lab audits</h2>
  <p>Pages picked to cover the site's URL templates (the path, its digits as <code>{n}</code>), loaded cold in Chromium as on ${PROFILE_NAMES[lab.profile]}
  once every page was in. ${done} Each audited page's report shows what its audit measured.</p>
  ${lab.templates.length === 0
    ? html`<p class="empty">${running ? 'No lab audit has succeeded yet.' : 'No lab audit succeeded: the audited pages\' reports say why.'}</p>`
    : html`<div class="table-wrap"><table class="list-table crawl-lab-table">
  <caption class="visually-hidden">Lab audits by URL template: the 75th percentile of each metric, and the mean accessibility score</caption>
  <thead><tr><th scope="col">URL template</th><th scope="col">Pages</th><th scope="col">LCP (p75)</th><th scope="col">CLS (p75)</th><th scope="col">TBT (p75)</th><th scope="col">Accessibility</th></tr></thead>
  <tbody>${templateRows(lab)}</tbody>
</table></div>`}
</section>`;
}
