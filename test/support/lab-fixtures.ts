// Lab audits for tests, in one place. Builders: the six resource types from the few a test names
// (labResources), a neutral measurement a test changes only where it is about (labMeasurement,
// labAudit), a check's context with it (labContext). The hero page's measurement, and a stand-in
// browser whose lab audits are fixed, for reports made through the real pipeline without Chromium.
// And an analysis made by hand so a test can state exactly what a view shows (the CLI's text report,
// the report page): a `lab` as docs/lab.md's example, the five lab checks and six accessibility rules
// judged as the checks judge them, a raw-HTML check beside them, and the score of those results (each
// check's importance and category the registry's).
import type { Analysis, CheckResult } from '../../src/analysis/types.ts';
import { INAPPLICABLE_REASON, NEEDS_REVIEW_REASON } from '../../src/checks/accessibility/index.ts';
import type { CheckContext, CheckErrors } from '../../src/checks/check.ts';
import { checksById } from '../../src/checks/index.ts';
import {
  RESOURCE_TYPES,
  type AccessibilityRun,
  type Lab,
  type LabAudit,
  type LabMeasurement,
  type LabMetrics,
  type LabProfileName,
  type LabResources,
  type ResourceType,
} from '../../src/lab/lab-types.ts';
import type { Renderer } from '../../src/render/renderer.ts';
import { scoreResults } from '../../src/scoring/score.ts';
import type { Report } from '../../src/services/types.ts';
import { makeContext, type ContextOverrides } from './check-context.ts';

/** Requests and bytes of each type named; the others none, the totals their sums. */
export function labResources(byType: Partial<Record<ResourceType, readonly [requests: number, bytes: number]>> = {}): LabResources {
  const by_type = Object.fromEntries(
    RESOURCE_TYPES.map((type) => {
      const [requests, bytes] = byType[type] ?? [0, 0];
      return [type, { requests, bytes }];
    }),
  ) as LabResources['by_type'];
  const counts = Object.values(by_type);
  return {
    requests: counts.reduce((sum, count) => sum + count.requests, 0),
    bytes: counts.reduce((sum, count) => sum + count.bytes, 0),
    by_type,
  };
}

/** A measurement's fields; `metrics` over the neutral ones. */
export type MeasurementOverrides = Partial<Omit<LabMeasurement, 'metrics'>> & { metrics?: Partial<LabMetrics> };

/** Mobile, every metric good (LCP 1,200 ms on an h1), one 20,000-byte document, no axe rule run. */
export function labMeasurement({ metrics, ...overrides }: MeasurementOverrides = {}): LabMeasurement {
  return {
    profile: 'mobile',
    metrics: { ttfb_ms: 100, fcp_ms: 900, lcp_ms: 1200, cls: 0, tbt_ms: 0, load_ms: 1500, ...metrics },
    lcp_element: { selector: 'h1', snippet: '<h1>' },
    layout_shifts: [],
    long_tasks: [],
    resources: labResources({ document: [1, 20_000] }),
    accessibility: { ok: true, rules: {} },
    ...overrides,
  };
}

export function labAudit(overrides: MeasurementOverrides = {}): LabAudit {
  return { ok: true, measurement: labMeasurement(overrides) };
}

export function withAccessibility(accessibility: AccessibilityRun): LabAudit {
  return labAudit({ accessibility });
}

/** A check's context with this lab audit (undefined: none was made). */
export function labContext(lab: LabAudit | undefined, overrides: ContextOverrides = {}): CheckContext {
  return { ...makeContext(overrides), lab };
}

/**
 * The page with a hero image: LCP 4,690 ms (poor) on it, CLS 0.012, TBT 0; a 4,100-byte document and a
 * 2,000-byte image; image-alt violated, html-has-lang passed.
 */
export function heroMeasurement(profile: LabProfileName, overrides: MeasurementOverrides = {}): LabMeasurement {
  return labMeasurement({
    profile,
    metrics: { ttfb_ms: 571, fcp_ms: 702, lcp_ms: 4690, cls: 0.012, tbt_ms: 0, load_ms: 4703 },
    lcp_element: { selector: 'img#hero', snippet: '<img id="hero" src="/hero.png">' },
    layout_shifts: [{ value: 0.012, selector: 'main > p:nth-of-type(2)' }],
    long_tasks: [{ start_ms: 1203, duration_ms: 412 }],
    resources: labResources({ document: [1, 4100], image: [1, 2000] }),
    accessibility: {
      ok: true,
      rules: {
        'image-alt': { outcome: 'violation', nodes: 1, violations: [{ selector: 'img#hero', snippet: '<img id="hero" src="/hero.png">', message: 'Element does not have an alt attribute' }] },
        'html-has-lang': { outcome: 'passed' },
      },
    },
    ...overrides,
  });
}

/**
 * A browser for an analyzer (analyzerFromConfig) whose lab audits are `audit`'s (by default every one
 * measures heroMeasurement), so a report made through the real pipeline has a lab audit without
 * Chromium. It renders and prints nothing.
 */
export function labStandInBrowser(
  audit: (url: string, profile: LabProfileName) => LabAudit | Promise<LabAudit> = (_url, profile) => ({ ok: true, measurement: heroMeasurement(profile) }),
): Renderer {
  return {
    render: async () => ({ ok: false, reason: 'This stand-in renders nothing.' }),
    lab: async (url, profile) => audit(url, profile),
    pdf: async () => {
      throw new Error('this stand-in prints no PDF');
    },
    close: async () => {},
  };
}

/**
 * LCP 4,690 ms (poor), CLS 0.012 (good), TBT 250 ms (needs improvement), FCP 702 ms (good); 81,234
 * bytes in 7 requests. Accessibility: image-alt (critical) failed, html-has-lang and document-title
 * (serious) passed: 20 of 30 points, 67.
 */
export const LAB: Lab = {
  profile: 'mobile',
  metrics: { ttfb_ms: 571, fcp_ms: 702, lcp_ms: 4690, cls: 0.012, tbt_ms: 250, load_ms: 4703 },
  lcp_element: { selector: 'img#hero', snippet: '<img id="hero" src="/img/hero.png" alt="">' },
  layout_shifts: [
    { value: 0.012, selector: 'main > p:nth-of-type(2)' },
    { value: 0.004, selector: null },
  ],
  long_tasks: [
    { start_ms: 1203, duration_ms: 412 },
    { start_ms: 880, duration_ms: 88 },
  ],
  resources: labResources({ document: [1, 4_100], script: [3, 52_000], stylesheet: [1, 9_134], image: [1, 16_000], other: [1, 0] }),
  accessibility: { score: 67, violations: 1, rules_checked: 3 },
};

/** A check's result with the registry's importance and category. */
export function resultOf(id: string, passed: boolean | null, extra: { value?: unknown; errors?: CheckErrors; reason?: string } = {}): CheckResult {
  const check = checksById.get(id);
  if (!check) throw new Error(`no check ${id} in the registry`);
  return {
    passed,
    importance: check.importance,
    category: check.category,
    value: extra.value ?? null,
    errors: extra.errors ?? null,
    ...(extra.reason !== undefined && { reason: extra.reason }),
  };
}

const band = (value: number, name: string) => ({ value: { value, band: name } });

const IMAGE_ALT_VIOLATION = {
  selector: 'img#hero',
  snippet: '<img id="hero" src="/img/hero.png" alt="">',
  message: 'Fix any of the following:\n  Element does not have an alt attribute',
};

export const LAB_RESULTS: Readonly<Record<string, CheckResult>> = {
  title: resultOf('title', true, { value: { title: 'Mountain coffee', length: 15 } }),
  largest_contentful_paint: resultOf('largest_contentful_paint', false, { ...band(4690, 'poor'), errors: { lcp_element: [LAB.lcp_element] } }),
  cumulative_layout_shift: resultOf('cumulative_layout_shift', true, band(0.012, 'good')),
  total_blocking_time: resultOf('total_blocking_time', false, { ...band(250, 'needs_improvement'), errors: { long_tasks: LAB.long_tasks } }),
  first_contentful_paint: resultOf('first_contentful_paint', true, band(702, 'good')),
  page_weight: resultOf('page_weight', true, band(81_234, 'good')),
  a11y_image_alt: resultOf('a11y_image_alt', false, { value: { nodes: 1 }, errors: { violations: [IMAGE_ALT_VIOLATION] } }),
  a11y_html_has_lang: resultOf('a11y_html_has_lang', true, { value: { nodes: 0 } }),
  a11y_document_title: resultOf('a11y_document_title', true, { value: { nodes: 0 } }),
  a11y_color_contrast: resultOf('a11y_color_contrast', null, { reason: NEEDS_REVIEW_REASON }),
  a11y_video_caption: resultOf('a11y_video_caption', null, { reason: INAPPLICABLE_REASON }),
  a11y_label: resultOf('a11y_label', null, { reason: INAPPLICABLE_REASON }),
};

export function labAnalysis(overrides: Partial<Analysis> = {}): Analysis {
  const results = overrides.results ?? LAB_RESULTS;
  return {
    url: 'https://example.com/',
    page: { final_url: 'https://example.com/', status_code: 200, redirects: [], content_type: 'text/html', charset: 'utf-8', http_version: '2', bytes: 4100, load_time_ms: 180 },
    results: { ...results },
    ...scoreResults(results),
    generatedAt: new Date('2026-12-03T10:00:00.000Z'),
    lab: LAB,
    ...overrides,
  };
}

/** The report a page shows of an analysis, as the services make it (a public one, one run). */
export function labReport(analysis: Analysis = labAnalysis()): Report {
  const at = analysis.generatedAt.toISOString();
  return {
    id: 7,
    organization: 1,
    url: analysis.url,
    project: new URL(analysis.url).host,
    privacy: 0,
    password: false,
    runs_count: 1,
    schedule: 'off',
    next_run_at: null,
    state: 'done',
    last_error: null,
    result: analysis.result,
    score: analysis.score,
    issues: analysis.issues,
    page: analysis.page,
    results: analysis.results,
    rendered: null,
    lab: analysis.lab ?? null,
    generated_at: at,
    created_at: at,
    updated_at: at,
  };
}
