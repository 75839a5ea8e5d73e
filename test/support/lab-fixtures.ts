// Lab audits for the views' tests. An analysis made by hand so a test can state exactly what a view
// shows (the CLI's text report, the report page): a `lab` as docs/lab.md's example, the five lab checks
// and six accessibility rules judged as the checks judge them, a raw-HTML check beside them, and the
// score of those results (each check's importance and category the registry's). And a stand-in browser
// whose lab audits are fixed, for reports made through the real pipeline without Chromium.
import type { Analysis, CheckResult } from '../../src/analysis/types.ts';
import { INAPPLICABLE_REASON, NEEDS_REVIEW_REASON } from '../../src/checks/accessibility/index.ts';
import type { CheckErrors } from '../../src/checks/check.ts';
import { checksById } from '../../src/checks/index.ts';
import type { Lab, LabAudit, LabMeasurement, LabProfileName } from '../../src/lab/lab-types.ts';
import type { Renderer } from '../../src/render/renderer.ts';
import { scoreResults } from '../../src/scoring/score.ts';
import type { Report } from '../../src/services/types.ts';

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
  resources: {
    requests: 7,
    bytes: 81_234,
    by_type: {
      document: { requests: 1, bytes: 4_100 },
      script: { requests: 3, bytes: 52_000 },
      stylesheet: { requests: 1, bytes: 9_134 },
      image: { requests: 1, bytes: 16_000 },
      font: { requests: 0, bytes: 0 },
      other: { requests: 1, bytes: 0 },
    },
  },
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

/** LCP 4,690 ms (poor); image-alt violated, html-has-lang passed. */
function labMeasurement(profile: LabProfileName): LabMeasurement {
  return {
    profile,
    metrics: { ttfb_ms: 571, fcp_ms: 702, lcp_ms: 4690, cls: 0.012, tbt_ms: 0, load_ms: 4703 },
    lcp_element: { selector: 'img#hero', snippet: '<img id="hero" src="/hero.png">' },
    layout_shifts: [{ value: 0.012, selector: 'main > p:nth-of-type(2)' }],
    long_tasks: [{ start_ms: 1203, duration_ms: 412 }],
    resources: {
      requests: 2,
      bytes: 6100,
      by_type: {
        document: { requests: 1, bytes: 4100 },
        script: { requests: 0, bytes: 0 },
        stylesheet: { requests: 0, bytes: 0 },
        image: { requests: 1, bytes: 2000 },
        font: { requests: 0, bytes: 0 },
        other: { requests: 0, bytes: 0 },
      },
    },
    accessibility: {
      ok: true,
      rules: {
        'image-alt': { outcome: 'violation', nodes: 1, violations: [{ selector: 'img#hero', snippet: '<img id="hero" src="/hero.png">', message: 'Element does not have an alt attribute' }] },
        'html-has-lang': { outcome: 'passed' },
      },
    },
  };
}

/**
 * A browser for an analyzer (analyzerFromConfig) whose every lab audit measures labMeasurement, so a
 * report made through the real pipeline has a lab audit without Chromium. It renders and prints nothing.
 */
export function labStandInBrowser(): Renderer {
  return {
    render: async () => ({ ok: false, reason: 'This stand-in renders nothing.' }),
    lab: async (_url: string, profile: LabProfileName): Promise<LabAudit> => ({ ok: true, measurement: labMeasurement(profile) }),
    pdf: async () => {
      throw new Error('this stand-in prints no PDF');
    },
    close: async () => {},
  };
}
