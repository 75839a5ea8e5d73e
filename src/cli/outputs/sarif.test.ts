import { describe, expect, it } from 'vitest';
import type { Analysis, CheckResult } from '../../analysis/types.ts';
import type { StructuredDataReport } from '../../structured/structured-types.ts';
import { FINDING_LINES, RICH_RESULTS_FAILED, STRUCTURED_DATA_INVALID, structuredAnalysis } from '../../../test/support/cli-structured-results.ts';
import { sarifSchemaErrors } from '../../../test/cli/schemas.ts';
import { renderSarif } from './sarif.ts';

interface SarifResult {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } }; logicalLocations: unknown[] }[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
}

const analysisOf = (url: string): Analysis => ({
  url,
  page: { final_url: url, status_code: 200, redirects: [], content_type: 'text/html', charset: 'utf-8', http_version: '1.1', bytes: 1, load_time_ms: 1 },
  results: { title: { passed: false, importance: 'high', category: 'seo', value: null, errors: { missing: ['x'] } } },
  score: 0,
  result: 'bad',
  issues: { high: 1, medium: 0, low: 0 },
  generatedAt: new Date(0),
});

const uriOf = (url: string): string => JSON.parse(renderSarif([{ url, analysis: analysisOf(url) }])).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri;

describe('SARIF locations', () => {
  it.each([
    ['https://example.com/', 'example.com/'],
    ['https://example.com/blog/post', 'example.com/blog/post'],
    ['http://127.0.0.1:8080/a:b?q=1&r=2', '127.0.0.1%3A8080/a%3Ab%3Fq=1&r=2'],
    ['https://[::1]:8443/', '%5B%3A%3A1%5D%3A8443/'],
  ])('%s: the relative path %s, which stays inside the checkout and keeps the whole URL', (url, uri) => {
    expect(uriOf(url)).toBe(uri);
    // Resolved as code scanning resolves a relative path: under the repository's root, no scheme of its own.
    const resolved = new URL(uri, 'file:///checkout/');
    expect(resolved.href.startsWith('file:///checkout/')).toBe(true);
    expect(decodeURIComponent(resolved.href.slice('file:///checkout/'.length))).toBe(url.replace(/^https?:\/\//, ''));
  });
});

describe('SARIF results of the structured-data checks', () => {
  const warningsOnly: StructuredDataReport = {
    schema_org_version: '30.0',
    items: [{ format: 'json-ld', type: 'Product', line: 14 }],
    rich_results: [
      {
        feature: 'Product snippets', type: 'Product', line: 14, valid: true, retired: null, errors: [],
        warnings: [{ property: 'offers.availability', message: 'The recommended property availability is missing.', line: 19 }],
      },
    ],
    errors: 0,
    warnings: 1,
    validation_errors: 0,
  };
  const resultsOf = (analysis: Analysis) => JSON.parse(renderSarif([{ url: analysis.url, analysis }])).runs[0].results;
  const results = resultsOf({ ...structuredAnalysis(), structuredData: warningsOnly });

  it('one result per error, at its line of the page; the other failed checks one result each, at line 1', () => {
    expect(results.map((result: SarifResult) => [result.ruleId, result.locations[0].physicalLocation.region.startLine])).toEqual([
      ['title', 1],
      ...FINDING_LINES,
    ]);
    for (const result of results as SarifResult[]) {
      expect(result.level).toBe(result.ruleId === 'title' ? 'error' : 'warning');
      expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe('shop.example/p/1');
      expect(result.locations[0].logicalLocations).toEqual([{ fullyQualifiedName: 'https://shop.example/p/1', kind: 'resource' }]);
    }
    expect(results[0].partialFingerprints).toEqual({ 'pagegradeCheck/v1': 'https://shop.example/p/1 title' });
  });

  it('each message names the feature, the type, the property path and the problem', () => {
    const texts = results.slice(1).map((result: SarifResult) => result.message.text);
    expect(texts).toEqual([
      'Merchant listings (Product), image: The required property image is missing.',
      "Product snippets (Product), offers.price: The offer's price must be a number, without currency sign.",
      "Product snippets (Product), offers.price: The offer's price must be a number, without currency sign.",
      'A JSON-LD block is not valid JSON: Unexpected token } in JSON at position 12.',
      'A JSON-LD node has no schema.org @context (it has "https://example.org/vocab"), so its data is not judged.',
      'A JSON-LD node has neither @type nor @graph.',
      'Prodcut (microdata): not a schema.org type.',
      'Offer (JSON-LD), offers.prise: not a schema.org property of Offer.',
      'Offer (JSON-LD), offers.priceValidUntil: expected Date or DateTime (ISO 8601).',
    ]);
    // The offending value is beside the message, not in it.
    expect(results[2].properties).toMatchObject({ kind: 'invalid_value', feature: 'Product snippets', property: 'offers.price', value: 'about ninety euros', url: 'https://shop.example/p/1' });
  });

  it('every fingerprint differs, also of two findings that say the same; none holds the line, so moving lines keeps the alert', () => {
    const fingerprints = results.map((result: SarifResult) => result.partialFingerprints['pagegradeCheck/v1']);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
    const shifted: CheckResult = {
      ...RICH_RESULTS_FAILED,
      errors: { missing_property: [{ ...(RICH_RESULTS_FAILED.errors!.missing_property[0] as object), line: 90 }] },
    };
    const [moved] = resultsOf({ ...structuredAnalysis(), results: { rich_results: shifted } });
    expect(moved.locations[0].physicalLocation.region.startLine).toBe(90);
    expect(moved.partialFingerprints).toEqual(results[1].partialFingerprints);
  });

  it('warnings are no results: a rich_results that passed with warnings gives none, nor does a check that does not apply', () => {
    const passed = resultsOf({
      ...structuredAnalysis(undefined, {
        rich_results: { ...RICH_RESULTS_FAILED, passed: true, errors: null, value: { eligible: ['Product snippets'], ineligible: [], retired: [], errors: 0, warnings: 1 } },
        structured_data_valid: { ...STRUCTURED_DATA_INVALID, passed: null, errors: null, reason: 'the page has no structured data' },
      }),
      structuredData: warningsOnly,
    });
    expect(passed.map((result: SarifResult) => result.ruleId)).toEqual(['title']);
  });

  it('is valid SARIF 2.1.0', () => {
    expect(sarifSchemaErrors(JSON.parse(renderSarif([{ url: 'https://shop.example/p/1', analysis: structuredAnalysis() }])))).toEqual([]);
  });
});
