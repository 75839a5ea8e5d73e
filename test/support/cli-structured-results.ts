// Results of the two structured-data checks, made by hand in the shapes docs/structured-data.md gives
// their errors, so the command line's outputs can be tested without the checks themselves: a failed
// rich_results (two offers with the same mistake, a missing property of another feature), a failed
// structured_data_valid with one error of each kind, and a page to put them on.
import type { Analysis, CheckResult } from '../../src/analysis/types.ts';

export const RICH_RESULTS_FAILED: CheckResult = {
  passed: false,
  importance: 'medium',
  category: 'miscellaneous',
  value: { eligible: [], ineligible: ['Merchant listings', 'Product snippets'], retired: [], errors: 3, warnings: 4 },
  errors: {
    missing_property: [
      { feature: 'Merchant listings', type: 'Product', property: 'image', message: 'The required property image is missing.', line: 14 },
    ],
    invalid_value: [
      { feature: 'Product snippets', type: 'Product', property: 'offers.price', message: "The offer's price must be a number, without currency sign.", line: 21, value: 'about ninety euros' },
      { feature: 'Product snippets', type: 'Product', property: 'offers.price', message: "The offer's price must be a number, without currency sign.", line: 27, value: 'free' },
    ],
  },
};

export const STRUCTURED_DATA_INVALID: CheckResult = {
  passed: false,
  importance: 'medium',
  category: 'miscellaneous',
  value: { schema_org_version: '30.0', items: 2, formats: ['json-ld', 'microdata'], errors: 6 },
  errors: {
    invalid_json: [{ line: 5, message: 'Unexpected token } in JSON at position 12' }],
    wrong_context: [{ line: 8, context: 'https://example.org/vocab' }],
    missing_type: [{ line: 9 }],
    unknown_type: [{ format: 'microdata', type: 'Prodcut', line: 40 }],
    unknown_property: [{ format: 'json-ld', type: 'Offer', property: 'offers.prise', line: 22 }],
    invalid_value: [{ format: 'json-ld', type: 'Offer', property: 'offers.priceValidUntil', value: 'next week', expected: 'Date or DateTime (ISO 8601)', line: 23 }],
  },
};

/** Every finding above, as SARIF has to locate them: check id and line. */
export const FINDING_LINES: readonly [string, number][] = [
  ['rich_results', 14],
  ['rich_results', 21],
  ['rich_results', 27],
  ['structured_data_valid', 5],
  ['structured_data_valid', 8],
  ['structured_data_valid', 9],
  ['structured_data_valid', 40],
  ['structured_data_valid', 22],
  ['structured_data_valid', 23],
];

/** A page that failed `title` (high) and both structured-data checks, and passed `canonical`. */
export function structuredAnalysis(url = 'https://shop.example/p/1', results: Record<string, CheckResult> = {}): Analysis {
  return {
    url,
    page: { final_url: url, status_code: 200, redirects: [], content_type: 'text/html', charset: 'utf-8', http_version: '1.1', bytes: 1, load_time_ms: 1 },
    results: {
      title: { passed: false, importance: 'high', category: 'seo', value: null, errors: { missing: ['x'] } },
      canonical: { passed: true, importance: 'medium', category: 'seo', value: null, errors: null },
      rich_results: RICH_RESULTS_FAILED,
      structured_data_valid: STRUCTURED_DATA_INVALID,
      ...results,
    },
    score: 40,
    result: 'bad',
    issues: { high: 1, medium: 2, low: 0 },
    generatedAt: new Date(0),
  };
}
