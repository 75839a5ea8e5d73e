import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../analysis/types.ts';
import { renderSarif } from './sarif.ts';

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
