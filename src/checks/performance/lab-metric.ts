// What the five lab metric checks share (docs/lab.md, "New checks"): each reads one number of the lab
// audit, passes up to its threshold, and reports the number with its band, good up to and including
// the first edge, needs improvement up to and including the second, poor above. The edges are the
// web-vitals ones, the same for both profiles; only the pass limit is configurable.
import { defineCheck, notApplicable, type CheckDefinition, type CheckErrors, type Importance } from '../check.ts';
import { labMeasurement } from '../lab-audit.ts';
import { DEFAULT_THRESHOLDS, type CheckThresholds } from '../thresholds.ts';
import type { LabMeasurement } from '../../lab/lab-types.ts';
import { Num, Obj, OneOf } from '../value-schema.ts';

const BANDS = ['good', 'needs_improvement', 'poor'] as const;
export type Band = (typeof BANDS)[number];

/** Band edges: [good up to, needs improvement up to]. */
export type BandEdges = readonly [number, number];

const KIB = 1024;

/**
 * Each lab metric's fixed band edges, by the `lab` figure it bands: written here only, for the checks
 * and for how reports show the bands (lab/lab-display.ts).
 */
export const BAND_EDGES = {
  lcp_ms: [2_500, 4_000],
  cls: [0.1, 0.25],
  tbt_ms: [200, 600],
  fcp_ms: [1_800, 3_000],
  // 1,600 KiB, and Lighthouse's median total byte weight, 4,000 KiB.
  page_weight_bytes: [1_600 * KIB, 4_000 * KIB],
} as const satisfies Readonly<Record<string, BandEdges>>;

export function bandOf(value: number, [good, needsImprovement]: BandEdges): Band {
  if (value <= good) return 'good';
  return value <= needsImprovement ? 'needs_improvement' : 'poor';
}

const LabMetricValue = Obj({
  value: Num({ description: 'the metric as in `lab` (milliseconds, a layout shift score or bytes)' }),
  band: OneOf([...BANDS]),
});

interface LabMetricSpec {
  id: string;
  importance: Importance;
  title: string;
  failureTitle: string;
  description: string;
  howToFix: string;
  /** Words for `value` and for the kinds and fields of `errors`; `band` has its own. */
  labels: Readonly<Record<string, string>>;
  edges: BandEdges;
  /** How docs/checks.md writes an edge: "2,500 ms". */
  unit: (edge: number) => string;
  /** The threshold it passes up to. */
  limit: keyof CheckThresholds;
  /** The metric, or why the audit has none. */
  measure(measurement: LabMeasurement): number | { missing: string };
  /** What `errors` lists when it failed. */
  errors(measurement: LabMeasurement, value: number, limit: number): CheckErrors;
}

export function defineLabMetricCheck(spec: LabMetricSpec): CheckDefinition {
  const [good, needsImprovement] = spec.edges;
  return defineCheck<typeof LabMetricValue>({
    id: spec.id,
    category: 'performance',
    importance: spec.importance,
    title: spec.title,
    failureTitle: spec.failureTitle,
    description: spec.description,
    howToFix: spec.howToFix,
    docsNote:
      `Measured by a lab audit (\`lab=1\`, \`analyze --lab\`), and does not apply without one. Passes up to ` +
      `${spec.unit(DEFAULT_THRESHOLDS[spec.limit])} (threshold \`${spec.limit}\`). \`value.band\`, whatever the threshold: good up to ` +
      `${spec.unit(good)}, needs improvement up to ${spec.unit(needsImprovement)}, poor above, for both profiles.`,
    labels: { band: 'Band (good, needs improvement, poor)', ...spec.labels },
    value: LabMetricValue,
    run({ lab, thresholds }) {
      const audit = labMeasurement(lab);
      if ('reason' in audit) return notApplicable(audit.reason);
      const measured = spec.measure(audit.measurement);
      if (typeof measured !== 'number') return notApplicable(measured.missing);
      const value = { value: measured, band: bandOf(measured, spec.edges) };
      const limit = thresholds[spec.limit];
      if (measured <= limit) return { passed: true, value, errors: null };
      return { passed: false, value, errors: spec.errors(audit.measurement, measured, limit) };
    },
  });
}

const integer = new Intl.NumberFormat('en');
export const milliseconds = (edge: number) => `${integer.format(edge)} ms`;

/** Why a paint metric is missing: the page painted nothing contentful while it was observed. */
export const NOTHING_PAINTED = 'Nothing contentful was painted during the lab audit';
