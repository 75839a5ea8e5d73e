// Builders for lab audits as the lab checks read them (src/lab/lab-types.ts): a neutral measurement a
// test changes only where it is about.
import type { CheckContext } from '../../src/checks/check.ts';
import type { AccessibilityRun, LabAudit, LabMeasurement, LabMetrics, LabResources, ResourceType } from '../../src/lab/lab-types.ts';
import { makeContext, type ContextOverrides } from './check-context.ts';

type MeasurementOverrides = Partial<Omit<LabMeasurement, 'metrics' | 'resources'>> & {
  metrics?: Partial<LabMetrics>;
  /** bytes and requests by type; the totals are their sums */
  byType?: Partial<Record<ResourceType, { requests: number; bytes: number }>>;
};

function resources(byType: MeasurementOverrides['byType'] = {}): LabResources {
  const types = ['document', 'script', 'stylesheet', 'image', 'font', 'other'] as const;
  const by_type = Object.fromEntries(types.map((type) => [type, byType[type] ?? { requests: 0, bytes: 0 }])) as LabResources['by_type'];
  const counts = Object.values(by_type);
  return {
    requests: counts.reduce((sum, count) => sum + count.requests, 0),
    bytes: counts.reduce((sum, count) => sum + count.bytes, 0),
    by_type,
  };
}

function makeMeasurement({ metrics, byType, ...overrides }: MeasurementOverrides = {}): LabMeasurement {
  return {
    profile: 'mobile',
    metrics: { ttfb_ms: 100, fcp_ms: 900, lcp_ms: 1200, cls: 0, tbt_ms: 0, load_ms: 1500, ...metrics },
    lcp_element: { selector: 'h1', snippet: '<h1>' },
    layout_shifts: [],
    long_tasks: [],
    resources: resources(byType ?? { document: { requests: 1, bytes: 20_000 } }),
    accessibility: { ok: true, rules: {} },
    ...overrides,
  };
}

export function makeLabAudit(overrides: MeasurementOverrides = {}): LabAudit {
  return { ok: true, measurement: makeMeasurement(overrides) };
}

export function withAccessibility(accessibility: AccessibilityRun): LabAudit {
  return makeLabAudit({ accessibility });
}

/** A check's context with this lab audit (undefined: none was made). */
export function labContext(lab: LabAudit | undefined, overrides: ContextOverrides = {}): CheckContext {
  return { ...makeContext(overrides), lab };
}
