// `analyze --lab`: the lab audit in the text report, under the score: the profile, the six metrics (the
// four banded ones with their band: good, needs improvement, poor), the page weight, the LCP element
// and the accessibility summary. What failed is listed with the other failed checks.
import type { Analysis } from '../analysis/types.ts';
import { BAND_NAMES, PAGE_WEIGHT_EDGES, bandOf, formatMetric, metricRows, type Band } from '../lab/lab-display.ts';
import type { Lab } from '../lab/lab-types.ts';
import { displayWidth, printable, truncate, type Style } from './terminal-text.ts';

/** The LCP element's start tag: enough to recognise it, short of a wrapped line. */
const SNIPPET_CHARS = 100;
const integer = new Intl.NumberFormat('en');
const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function bandColour(band: Band, style: Style): (text: string) => string {
  return band === 'good' ? style.green : band === 'needs_improvement' ? style.yellow : style.red;
}

function kib(bytes: number): string {
  return `${oneDecimal.format(bytes / 1024)} KiB`;
}

interface Row {
  label: string;
  value: string;
  band?: Band;
  /** the metrics' bands line up in a column; the page weight's follows its longer value */
  metric?: true;
}

function rows(lab: Lab): Row[] {
  const metrics: Row[] = metricRows(lab.metrics).map((row) => ({
    label: row.abbreviation === null ? row.name : `${row.name} (${row.abbreviation})`,
    value: row.value === null ? row.missing : formatMetric(row.key, row.value),
    ...(row.band !== null && { band: row.band }),
    metric: true,
  }));
  const { bytes, requests } = lab.resources;
  const weight: Row = {
    label: 'Page weight',
    value: `${kib(bytes)} (${integer.format(bytes)} bytes) in ${integer.format(requests)} request${requests === 1 ? '' : 's'}`,
    band: bandOf(bytes, PAGE_WEIGHT_EDGES),
  };
  const element = lab.lcp_element;
  const lcpElement: Row = {
    label: 'LCP element',
    value: element === null ? 'none (no LCP, or its element is gone)' : `${printable(element.selector)}  ${truncate(printable(element.snippet), SNIPPET_CHARS)}`,
  };
  const { score, violations, rules_checked } = lab.accessibility;
  const accessibility: Row = {
    label: 'Accessibility',
    value: score === null ? 'no rule applied' : `${score}/100 · ${violations} of ${rules_checked} rule${rules_checked === 1 ? '' : 's'} checked violated`,
  };
  return [...metrics, weight, lcpElement, accessibility];
}

/** The Lab part of the report; empty when no lab audit was asked for. */
export function renderLabText(analysis: Analysis, style: Style): string[] {
  const { lab } = analysis;
  if (lab === undefined) return [];
  if (lab === null) {
    // The lab checks say why ("The lab audit could not load the page: ...").
    const reason = analysis.results.largest_contentful_paint?.reason ?? 'The lab audit could not observe the page.';
    return [style.bold('Lab audit'), `  ${style.yellow(`Not measured: ${printable(reason)}`)}`];
  }
  const all = rows(lab);
  const width = Math.max(...all.map((row) => displayWidth(row.label)));
  const valueWidth = Math.max(0, ...all.filter((row) => row.metric && row.band).map((row) => displayWidth(row.value)));
  const lines = all.map(({ label, value, band, metric }) => {
    const start = `  ${label.padEnd(width)}  `;
    if (!band) return `${start}${value}`;
    const padding = metric ? ' '.repeat(valueWidth - displayWidth(value)) : '';
    return `${start}${value}${padding}  ${bandColour(band, style)(BAND_NAMES[band])}`;
  });
  return [style.bold(`Lab audit (${lab.profile} profile)`), ...lines];
}
