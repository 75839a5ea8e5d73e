// What a lab audit measures (docs/lab.md): the page loaded cold in Chromium under a phone's or a
// desktop's screen, CPU and network, its paint, layout-shift and main-thread timings, every byte it
// downloaded, and axe-core's verdict on each accessibility rule. The browser side (lab-audit.ts) makes
// a LabAudit; the checks judge it (checks/performance/lab-*.ts, checks/accessibility/); the report
// shows `lab` (Lab), built from it once the checks ran.

export const LAB_PROFILES = ['mobile', 'desktop'] as const;
export type LabProfileName = (typeof LAB_PROFILES)[number];

/** Integer milliseconds from the navigation's start; `cls` rounded to 3 decimals. */
export interface LabMetrics {
  ttfb_ms: number | null;
  fcp_ms: number | null;
  lcp_ms: number | null;
  cls: number;
  tbt_ms: number | null;
  load_ms: number | null;
}

/** An element of the loaded DOM: a selector that finds it, and its start tag (at most 200 characters). */
export interface LabElement {
  selector: string;
  snippet: string;
}

export interface LabLayoutShift {
  value: number;
  /** its first source element's selector; null when the element is gone */
  selector: string | null;
}

export interface LabLongTask {
  start_ms: number;
  duration_ms: number;
}

export const RESOURCE_TYPES = ['document', 'script', 'stylesheet', 'image', 'font', 'other'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

interface ResourceCount {
  requests: number;
  /** as received over the network: headers plus the body as sent */
  bytes: number;
}

export interface LabResources extends ResourceCount {
  /** always the six keys; they add up to the totals */
  by_type: Record<ResourceType, ResourceCount>;
}

/** One element axe-core found violating a rule. */
export interface AxeViolation {
  selector: string;
  /** its HTML as axe-core reports it, at most 200 characters */
  snippet: string;
  /** axe-core's failure summary */
  message: string;
}

/** axe-core's verdict on one rule (by axe rule id, `image-alt`). */
export type AxeRuleOutcome =
  | { outcome: 'violation'; nodes: number; violations: AxeViolation[] }
  | { outcome: 'passed' }
  | { outcome: 'inapplicable' }
  | { outcome: 'incomplete' };

/** axe-core's run on the loaded DOM: every rule it ran, or why it could not run. */
export type AccessibilityRun = { ok: true; rules: Record<string, AxeRuleOutcome> } | { ok: false; reason: string };

/** What the browser measured in one lab audit. */
export interface LabMeasurement {
  profile: LabProfileName;
  metrics: LabMetrics;
  lcp_element: LabElement | null;
  /** the 5 largest, largest first */
  layout_shifts: LabLayoutShift[];
  /** the 5 longest over 50 ms, longest first */
  long_tasks: LabLongTask[];
  resources: LabResources;
  accessibility: AccessibilityRun;
}

/** A lab audit's outcome: what was measured, or why the page could not be observed at all. */
export type LabAudit = { ok: true; measurement: LabMeasurement } | { ok: false; reason: string };

/** The report's `lab` (null when no lab audit ran, or when it could not observe the page). */
export interface Lab extends Omit<LabMeasurement, 'accessibility'> {
  accessibility: {
    /** the report's accessibility category score; null when no accessibility rule applied */
    score: number | null;
    /** a11y_ checks that failed */
    violations: number;
    /** a11y_ checks that applied (passed or failed) */
    rules_checked: number;
  };
}
