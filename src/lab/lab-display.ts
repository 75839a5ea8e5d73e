// How a lab audit's numbers are shown to people, the same in the text report (cli/lab-text.ts) and on
// the report page (web/views/lab-section.ts): the metrics in one order with their names, and each
// banded metric's band by the fixed web-vitals edges (docs/lab.md, "New checks"), as its check gives
// it (checks/performance/lab-metric.ts): good up to and including the first edge, needs improvement
// up to and including the second, poor above. The edges are not the pass limits (PAGEGRADE_THRESHOLDS
// may move those); a band never moves.
import { BAND_EDGES, bandOf, milliseconds, type Band, type BandEdges } from '../checks/performance/lab-metric.ts';
import type { LabMetrics } from './lab-types.ts';

export { bandOf, type Band, type BandEdges };

export const BAND_NAMES: Readonly<Record<Band, string>> = { good: 'good', needs_improvement: 'needs improvement', poor: 'poor' };

/** The verdict whose colours a band wears (good, decent, bad), so the pages need no colours of their own. */
export const BAND_TONES: Readonly<Record<Band, 'good' | 'decent' | 'bad'>> = { good: 'good', needs_improvement: 'decent', poor: 'bad' };

/** page_weight's edges. */
export const PAGE_WEIGHT_EDGES: BandEdges = BAND_EDGES.page_weight_bytes;

export interface MetricRow {
  key: keyof LabMetrics;
  /** "Largest Contentful Paint" */
  name: string;
  /** "LCP"; null when the name is short enough ("Load event") */
  abbreviation: string | null;
  value: number | null;
  /** null for the metrics without one (TTFB, load) and for a metric not measured */
  band: Band | null;
  edges: BandEdges | null;
  /** why there is no value, in a few words, when there is none */
  missing: string;
}

interface MetricSpec {
  key: keyof LabMetrics;
  name: string;
  abbreviation: string | null;
  edges: BandEdges | null;
  missing: string;
}

const NOTHING_PAINTED = 'not measured: nothing contentful was painted';

/** The Core Web Vitals first (as the checks list them), then the two timings that have no band. */
const METRICS: readonly MetricSpec[] = [
  { key: 'lcp_ms', name: 'Largest Contentful Paint', abbreviation: 'LCP', edges: BAND_EDGES.lcp_ms, missing: NOTHING_PAINTED },
  { key: 'cls', name: 'Cumulative Layout Shift', abbreviation: 'CLS', edges: BAND_EDGES.cls, missing: 'not measured' },
  { key: 'tbt_ms', name: 'Total Blocking Time', abbreviation: 'TBT', edges: BAND_EDGES.tbt_ms, missing: NOTHING_PAINTED },
  { key: 'fcp_ms', name: 'First Contentful Paint', abbreviation: 'FCP', edges: BAND_EDGES.fcp_ms, missing: NOTHING_PAINTED },
  { key: 'ttfb_ms', name: 'Time to First Byte', abbreviation: 'TTFB', edges: null, missing: 'not measured' },
  { key: 'load_ms', name: 'Load event', abbreviation: null, edges: null, missing: 'not measured: the load event did not come within the audit' },
];

/** The banded metrics' edges by their `lab.metrics` key. */
export const METRIC_EDGES: Readonly<Partial<Record<keyof LabMetrics, BandEdges>>> = Object.fromEntries(
  METRICS.flatMap(({ key, edges }) => (edges ? [[key, edges]] : [])),
);

export function metricRows(metrics: LabMetrics): MetricRow[] {
  return METRICS.map(({ key, name, abbreviation, edges, missing }) => {
    const value = metrics[key];
    return { key, name, abbreviation, value, band: value !== null && edges ? bandOf(value, edges) : null, edges, missing };
  });
}

/** A metric's value with its unit: "4,690 ms"; CLS is a unitless score, as measured ("0.012"). */
export function formatMetric(key: keyof LabMetrics, value: number): string {
  return key === 'cls' ? String(value) : milliseconds(value);
}

/** The band's edges in words: "good ≤ 2,500 ms, poor > 4,000 ms". */
export function formatEdges(key: keyof LabMetrics, [good, poor]: BandEdges): string {
  return `good ≤ ${formatMetric(key, good)}, poor > ${formatMetric(key, poor)}`;
}
