import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis, CheckResult } from '../analysis/types.ts';
import { categoryScore } from '../scoring/score.ts';
import { checkBudget, readBudget } from './budget.ts';
import { UsageError } from './command.ts';
import { titleOf } from './report-text.ts';

const result = (passed: boolean | null, importance: CheckResult['importance'], category: CheckResult['category'], reason?: string): CheckResult => ({
  passed,
  importance,
  category,
  value: null,
  errors: passed === false ? { missing: ['x'] } : null,
  ...(reason ? { reason } : {}),
});

// SEO: high passed (10 of 10), medium failed (0 of 5), low not applicable: 10 / 15 = 67.
// Security: one low check failed: 0. Performance: none applies. Miscellaneous: no check at all.
const results: Record<string, CheckResult> = {
  title: result(true, 'high', 'seo'),
  canonical: result(false, 'medium', 'seo'),
  hreflang: result(null, 'low', 'seo', 'no alternates'),
  http2: result(null, 'low', 'performance', 'plain http'),
  hsts: result(false, 'low', 'security'),
};
const analysis: Analysis = {
  url: 'https://example.com/',
  page: { final_url: 'https://example.com/', status_code: 200, redirects: [], content_type: 'text/html', charset: 'utf-8', http_version: '1.1', bytes: 1, load_time_ms: 1 },
  results,
  score: 59,
  result: 'decent',
  issues: { high: 0, medium: 1, low: 1 },
  generatedAt: new Date(0),
};

describe('categoryScore', () => {
  it("is the score's fraction over the category's applicable checks, null when none applies", () => {
    expect(categoryScore(results, 'seo')).toBe(67);
    expect(categoryScore(results, 'security')).toBe(0);
    expect(categoryScore(results, 'performance')).toBeNull();
    expect(categoryScore(results, 'miscellaneous')).toBeNull();
  });
});

describe('checkBudget', () => {
  it('a line per broken assertion with its limit, the URL and the value; what does not apply is only noted', () => {
    const check = checkBudget(analysis, {
      min_score: 60,
      categories: { seo: 70, security: 0, performance: 50 },
      must_pass: ['title', 'canonical', 'hreflang', 'canonical'],
      max_failed: { high: 0, medium: 0, low: 1 },
    });
    expect(check.broken).toEqual([
      '--budget min_score 60: https://example.com/ scored 59.',
      '--budget categories.seo 70: https://example.com/ scored 67 in SEO.',
      `--budget must_pass canonical: https://example.com/ failed it (${titleOf('canonical', false)}).`,
      '--budget max_failed.medium 0: https://example.com/ failed 1 medium-importance checks (canonical).',
    ]);
    expect(check.unchecked).toEqual([
      '--budget categories.performance 50 not checked for https://example.com/: no Performance check applies.',
      '--budget must_pass hreflang not checked for https://example.com/: the check does not apply (no alternates).',
    ]);
  });

  it('limits met exactly are not broken', () => {
    expect(checkBudget(analysis, { min_score: 59, categories: { seo: 67 }, must_pass: ['title'], max_failed: { medium: 1, low: 1 } })).toEqual({
      broken: [],
      unchecked: [],
    });
  });
});

describe('checkBudget: the structured-data checks', () => {
  const withStructured = (richResults: CheckResult, valid: CheckResult): Analysis => ({
    ...analysis,
    results: { ...results, rich_results: richResults, structured_data_valid: valid },
  });
  const budget = { must_pass: ['rich_results', 'structured_data_valid'], max_failed: { medium: 1 } };

  it('must_pass takes both: a failed one is a broken assertion naming it and the URL; max_failed counts them as medium checks', () => {
    const check = checkBudget(withStructured(result(false, 'medium', 'miscellaneous'), result(true, 'medium', 'miscellaneous')), budget);
    expect(check.broken).toEqual([
      `--budget must_pass rich_results: https://example.com/ failed it (${titleOf('rich_results', false)}).`,
      '--budget max_failed.medium 1: https://example.com/ failed 2 medium-importance checks (canonical, rich_results).',
    ]);
    expect(check.unchecked).toEqual([]);
  });

  it('one that does not apply (no structured data, no rich-result item) fails nothing and is only noted', () => {
    const check = checkBudget(
      withStructured(result(null, 'medium', 'miscellaneous', 'no item of a Google rich-result type'), result(null, 'medium', 'miscellaneous', 'no structured data')),
      budget,
    );
    expect(check.broken).toEqual([]);
    expect(check.unchecked).toEqual([
      '--budget must_pass rich_results not checked for https://example.com/: the check does not apply (no item of a Google rich-result type).',
      '--budget must_pass structured_data_valid not checked for https://example.com/: the check does not apply (no structured data).',
    ]);
  });
});

describe('readBudget', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pagegrade-budget-unit-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  async function read(content: string): Promise<unknown> {
    const path = join(directory, 'budget.json');
    await writeFile(path, content);
    return readBudget(path);
  }

  it("takes the README's example, and an empty budget", async () => {
    const readme = await readFile(join(import.meta.dirname, '../../README.md'), 'utf8');
    const commandLine = readme.slice(readme.indexOf('## Command line'));
    const example = /```json\n([^`]+)```/.exec(commandLine)?.[1];
    expect(example).toBeDefined();
    expect(await read(example!)).toEqual(JSON.parse(example!));
    expect(await read('\uFEFF{}')).toEqual({});
  });

  // Known once the checks are in the registry (src/checks/index.ts), as every must_pass id is.
  it('must_pass takes the structured-data checks', async () => {
    const budget = '{"must_pass": ["structured_data", "structured_data_valid", "rich_results"]}';
    expect(await read(budget)).toEqual(JSON.parse(budget));
  });

  it.each([
    ['[]', 'it is not a JSON object'],
    ['{"min_score": 80, "minscore": 1}', 'unknown key "minscore" (known: min_score, categories, must_pass, max_failed, lab)'],
    ['{"min_score": "80"}', '"min_score" must be a number from 0 to 100; got "80"'],
    ['{"min_score": 101}', '"min_score" must be a number from 0 to 100; got 101'],
    ['{"categories": [90]}', '"categories" must be an object of scores by category; got [90]'],
    ['{"categories": {"usability": 90}}', 'unknown key "categories.usability" (known: seo, performance, security, miscellaneous, accessibility)'],
    ['{"categories": {"seo": null}}', '"categories.seo" must be a number from 0 to 100; got null'],
    ['{"must_pass": "title"}', '"must_pass" must be an array of check ids; got "title"'],
    ['{"must_pass": ["title", "titel"]}', '"must_pass" names no known check: "titel"'],
    ['{"max_failed": {"critical": 0}}', 'unknown key "max_failed.critical" (known: high, medium, low)'],
    ['{"max_failed": {"high": -1}}', '"max_failed.high" must be a whole number from 0; got -1'],
    ['{"max_failed": {"low": 1.5}}', '"max_failed.low" must be a whole number from 0; got 1.5'],
  ])('%s is not a valid budget', async (content, why) => {
    const path = join(directory, 'budget.json');
    await expect(read(content)).rejects.toStrictEqual(new UsageError(`--budget ${path} is not a valid budget: ${why}.`));
  });
});
