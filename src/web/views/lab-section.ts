// The report page's "Lab" section (lab=1, docs/lab.md): how the page was loaded (the profile), its
// metrics with their bands (good, needs improvement, poor: words, coloured as verdicts), the LCP
// element, the largest layout shifts and longest tasks, what it downloaded by type, and the
// accessibility summary, which links the Accessibility category below. Only for a run with a lab
// audit. Built from existing styles (tables of
// list-table, verdict chips, facts), so print.css prints it as the rest of the report. Everything
// from the page (selectors, tags) is escaped by the html template.
import { BAND_NAMES, BAND_TONES, PAGE_WEIGHT_EDGES, bandOf, formatEdges, formatMetric, metricRows, type Band } from '../../lab/lab-display.ts';
import { LAB_PROFILE } from '../../lab/lab-profiles.ts';
import { RESOURCE_TYPES, type Lab, type LabProfileName, type ResourceType } from '../../lab/lab-types.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatBytes, formatNumber, plural } from './format.ts';

const PROFILE_DEVICES: Record<LabProfileName, string> = { mobile: 'a phone', desktop: 'a desktop computer' };

const RESOURCE_NAMES: Record<ResourceType, string> = {
  document: 'Documents',
  script: 'Scripts',
  stylesheet: 'Stylesheets',
  image: 'Images',
  font: 'Fonts',
  other: 'Other (XHR, fetch, media, …)',
};

/** 1,638.4 kbit/s (Lighthouse's 1.6 Mbit/s) -> "1.6 Mbit/s"; 750 -> "750 kbit/s". */
const throughput = (kbps: number) => (kbps < 1024 ? `${formatNumber(kbps)} kbit/s` : `${Number((kbps / 1024).toFixed(1))} Mbit/s`);

/** "Loaded cold in Chromium as on a phone (mobile profile): a 412 × 823 screen, ..." */
function profileSentence(profile: LabProfileName): string {
  const { viewport, cpuSlowdown, nominal } = LAB_PROFILE[profile];
  const cpu = cpuSlowdown > 1 ? `a CPU ${cpuSlowdown} times slower than the server's` : "the server's CPU as it is";
  return (
    `Loaded cold in Chromium as on ${PROFILE_DEVICES[profile]} (${profile} profile): a ${viewport.width} × ${viewport.height} screen, ` +
    `${cpu}, ${throughput(nominal.downloadKbps)} down and ${throughput(nominal.uploadKbps)} up with ${nominal.rttMs} ms round trips, as Lighthouse loads it.`
  );
}

function bandChip(band: Band): SafeHtml {
  return html`<span class="verdict-chip verdict-chip--${BAND_TONES[band]} lab-band">${BAND_NAMES[band].charAt(0).toUpperCase()}${BAND_NAMES[band].slice(1)}</span>`;
}

/** The cell of a band with its edges under it; a dash for the timings that have no band. */
function bandCell(band: Band | null, edges: string | null): SafeHtml {
  if (band === null) return html`<td data-label="Band"><span class="muted">${edges === null ? 'No band' : 'Not measured'}</span></td>`;
  return html`<td data-label="Band">${bandChip(band)}${edges === null ? '' : html`<span class="muted">${edges}</span>`}</td>`;
}

function metricsTable(lab: Lab): SafeHtml {
  const rows = metricRows(lab.metrics).map((row) => {
    const edges = row.edges && formatEdges(row.key, row.edges);
    const measured = row.value === null ? html`<span class="none">${row.missing.charAt(0).toUpperCase()}${row.missing.slice(1)}</span>` : formatMetric(row.key, row.value);
    return html`<tr class="lab-metric" data-metric="${row.key}">
    <td data-label="Metric"><strong>${row.name}</strong>${row.abbreviation === null ? '' : ` (${row.abbreviation})`}</td>
    <td data-label="Measured">${measured}</td>
    ${bandCell(row.band, edges)}
  </tr>`;
  });
  const { bytes, requests } = lab.resources;
  const weightEdges = `good ≤ ${formatNumber(PAGE_WEIGHT_EDGES[0] / 1024)} KiB, poor > ${formatNumber(PAGE_WEIGHT_EDGES[1] / 1024)} KiB`;
  const weight = html`<tr class="lab-metric" data-metric="page_weight">
    <td data-label="Metric"><strong>Page weight</strong></td>
    <td data-label="Measured">${formatBytes(bytes)} in ${plural(requests, 'request')}</td>
    ${bandCell(bandOf(bytes, PAGE_WEIGHT_EDGES), weightEdges)}
  </tr>`;
  return html`<div class="table-wrap"><table class="list-table lab-metrics">
  <caption class="visually-hidden">What the lab audit measured, with each metric's band</caption>
  <thead><tr><th scope="col">Metric</th><th scope="col">Measured</th><th scope="col">Band</th></tr></thead>
  <tbody>${rows}${weight}</tbody>
</table></div>`;
}

function lcpElement(lab: Lab): SafeHtml {
  const element = lab.lcp_element;
  const value = element === null
    ? html`<span class="none">None: the page has no largest contentful paint, or its element is gone from the page</span>`
    : html`<code class="lab-selector">${element.selector}</code> <code class="lab-snippet">${element.snippet}</code>`;
  return html`<div><dt>Largest contentful paint element</dt><dd>${value}</dd></div>`;
}

function accessibilitySummary(lab: Lab): SafeHtml {
  const { score, violations, rules_checked } = lab.accessibility;
  const value = score === null
    ? html`No accessibility rule applied to the page.`
    : html`${score}/100: ${formatNumber(violations)} of ${plural(rules_checked, 'rule')} checked violated. <a href="#category-accessibility">See each rule</a>.`;
  return html`<div><dt>Accessibility (axe-core)</dt><dd>${value}</dd></div>`;
}

function layoutShifts(lab: Lab): SafeHtml {
  if (lab.layout_shifts.length === 0) return html`<h3>Largest layout shifts</h3><p class="lab-none">Nothing on the page shifted.</p>`;
  return html`<h3>Largest layout shifts</h3>
<div class="table-wrap"><table class="list-table lab-shifts">
  <caption class="visually-hidden">The largest layout shifts, largest first</caption>
  <thead><tr><th scope="col">Shift</th><th scope="col">First element that moved</th></tr></thead>
  <tbody>${lab.layout_shifts.map((shift) => html`<tr>
    <td data-label="Shift">${formatMetric('cls', shift.value)}</td>
    <td data-label="Element">${shift.selector === null ? html`<span class="none">gone from the page</span>` : html`<code>${shift.selector}</code>`}</td>
  </tr>`)}</tbody>
</table></div>`;
}

function longTasks(lab: Lab): SafeHtml {
  if (lab.long_tasks.length === 0) return html`<h3>Longest main-thread tasks</h3><p class="lab-none">No main-thread task took over 50 ms.</p>`;
  return html`<h3>Longest main-thread tasks</h3>
<div class="table-wrap"><table class="list-table lab-tasks">
  <caption class="visually-hidden">The longest main-thread tasks over 50 ms, longest first</caption>
  <thead><tr><th scope="col">Started at</th><th scope="col">Took</th></tr></thead>
  <tbody>${lab.long_tasks.map((task) => html`<tr>
    <td data-label="Started at">${formatMetric('load_ms', task.start_ms)}</td>
    <td data-label="Took">${formatMetric('load_ms', task.duration_ms)}</td>
  </tr>`)}</tbody>
</table></div>`;
}

function resources(lab: Lab): SafeHtml {
  const { by_type, requests, bytes } = lab.resources;
  return html`<h3>What the page downloaded</h3>
<div class="table-wrap"><table class="list-table lab-resources">
  <caption class="visually-hidden">Requests and bytes by type of resource</caption>
  <thead><tr><th scope="col">Type</th><th scope="col">Requests</th><th scope="col">Bytes</th></tr></thead>
  <tbody>${RESOURCE_TYPES.map((type) => html`<tr data-type="${type}">
    <td data-label="Type">${RESOURCE_NAMES[type]}</td>
    <td data-label="Requests">${formatNumber(by_type[type].requests)}</td>
    <td data-label="Bytes">${formatBytes(by_type[type].bytes)}</td>
  </tr>`)}<tr data-type="total">
    <td data-label="Type"><strong>All</strong></td>
    <td data-label="Requests"><strong>${formatNumber(requests)}</strong></td>
    <td data-label="Bytes"><strong>${formatBytes(bytes)}</strong></td>
  </tr></tbody>
</table></div>
<p class="muted">Bytes as received over the network: headers and bodies as sent, compressed where they were.</p>`;
}

/**
 * Empty unless the run had a lab audit that observed the page. One that could not is only null here:
 * its lab checks, not applicable, say why in the Performance category.
 */
export function labSection(lab: Lab | null | undefined): SafeHtml | '' {
  if (!lab) return '';
  return html`<section class="lab" id="lab" aria-labelledby="lab-heading">
  <h2 id="lab-heading">Lab</h2>
  <p>${profileSentence(lab.profile)}</p>
  ${metricsTable(lab)}
  <dl class="facts lab-facts">
    ${lcpElement(lab)}
    ${accessibilitySummary(lab)}
  </dl>
  ${layoutShifts(lab)}
  ${longTasks(lab)}
  ${resources(lab)}
</section>`;
}
