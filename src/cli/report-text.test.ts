import { describe, expect, it } from 'vitest';
import { renderReport } from './report-text.ts';
import { createStyle } from './terminal-text.ts';
import { allChecks } from '../checks/index.ts';
import type { Analysis, CheckResult } from '../analysis/types.ts';
import type { Category, CheckDefinition, Importance } from '../checks/check.ts';
import { structuredAnalysis } from '../../test/support/cli-structured-results.ts';

function checkOf(category: Category, importance: Importance): CheckDefinition {
  const check = allChecks.find((candidate) => candidate.category === category && candidate.importance === importance);
  if (!check) throw new Error(`no ${importance} ${category} check`);
  return check;
}

const seoHigh = checkOf('seo', 'high');
const seoLow = checkOf('seo', 'low');
const performance = checkOf('performance', 'medium');
const security = checkOf('security', 'high');
const miscellaneous = checkOf('miscellaneous', 'low');

function result(check: CheckDefinition, passed: boolean | null, extra: Partial<CheckResult> = {}): CheckResult {
  return { passed, importance: check.importance, category: check.category, value: null, errors: null, ...extra };
}

const analysis: Analysis = {
  url: 'https://example.com/',
  page: {
    final_url: 'https://example.com/home',
    status_code: 200,
    redirects: [{ url: 'https://example.com/', status_code: 301 }],
    content_type: 'text/html',
    charset: 'utf-8',
    http_version: '2',
    bytes: 2048,
    load_time_ms: 120,
  },
  // Registry order puts the low SEO check first here: the report must still lead with the high one.
  results: {
    [seoLow.id]: result(seoLow, false, { errors: { missing: ['one\nline'] } }),
    [performance.id]: result(performance, false, { errors: { too_many: [{ elements: 6, max: 5 }] } }),
    [security.id]: result(security, true),
    [seoHigh.id]: result(seoHigh, false, { errors: { multiple: ['a', 'b', 'c', 'd', 'e'] } }),
    [miscellaneous.id]: result(miscellaneous, null, { reason: 'the page has no forms' }),
  },
  score: 42,
  result: 'bad',
  issues: { high: 1, medium: 1, low: 1 },
  generatedAt: new Date('2026-01-01T00:00:00.000Z'),
};

describe('renderReport', () => {
  const lines = renderReport(analysis, createStyle(false)).split('\n');

  it('starts with the URL, where it led, the score and verdict and the page facts', () => {
    expect(lines.slice(0, 4)).toEqual([
      'https://example.com/',
      '  → https://example.com/home',
      'Score 42/100 bad',
      'HTTP 200 · 2.0 KiB · 120 ms · issues: 1 high, 1 medium, 1 low',
    ]);
  });

  it('lists failures by category, most important first, with a few items each and the fix', () => {
    const at = (line: string) => lines.indexOf(line);
    expect(at('Failed checks (3)')).toBe(5);
    expect(at('SEO')).toBeLessThan(at(`  ✗ ${seoHigh.failureTitle} [high]`));
    expect(at(`  ✗ ${seoHigh.failureTitle} [high]`)).toBeLessThan(at(`  ✗ ${seoLow.failureTitle} [low]`));
    expect(at(`  ✗ ${seoLow.failureTitle} [low]`)).toBeLessThan(at('Performance'));
    expect(lines).not.toContain('Security');
    const high = at(`  ✗ ${seoHigh.failureTitle} [high]`);
    expect(lines.slice(high + 1, high + 7)).toEqual([
      '      multiple:',
      '        - a',
      '        - b',
      '        - c',
      '        … and 2 more',
      `      Fix: ${seoHigh.howToFix}`,
    ]);
    expect(lines).toContain('        - one line');
    expect(lines).toContain('        - elements: 6, max: 5');
  });

  it('then what passed, and what did not apply with its reason', () => {
    expect(lines.slice(lines.indexOf('Passed (1)'), lines.indexOf('Passed (1)') + 2)).toEqual(['Passed (1)', `  ✓ ${security.title}`]);
    expect(lines).toContain(`  - ${miscellaneous.title}: the page has no forms`);
  });

  it('colours the verdict and marks only when asked', () => {
    expect(renderReport(analysis, createStyle(false))).not.toContain('\u001b');
    expect(renderReport(analysis, createStyle(true))).toContain('Score \u001b[31m42/100 bad\u001b[39m');
  });
});

describe('renderReport: the structured-data checks', () => {
  const lines = renderReport(structuredAnalysis(), createStyle(false)).split('\n');

  it('an error a line, led by its line of the page, a few of each kind', () => {
    const at = lines.indexOf('      invalid value:');
    expect(lines.slice(at, at + 3)).toEqual([
      '      invalid value:',
      `        - line 21: Product snippets (Product), offers.price: The offer's price must be a number, without currency sign. (value: "about ninety euros")`,
      `        - line 27: Product snippets (Product), offers.price: The offer's price must be a number, without currency sign. (value: "free")`,
    ]);
    expect(lines).toContain('        - line 40: Prodcut (microdata): not a schema.org type.');
  });
});
