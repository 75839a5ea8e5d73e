// `pagegrade crawl`'s CI gates beyond --fail-on: --budget (a JSON file of assertions, each broken one a
// stderr line) and --compare / --fail-on-regression (the crawl against an earlier --json output, as
// GET /crawls/{id}/diff compares two crawls). Every broken gate is printed; exit 1 when any is, 2 for
// a file that is not what it should be.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command.ts';
import { checkCrawlBudget, parseCrawlBudget } from '../../src/cli/crawl-budget.ts';
import type { Crawl, CrawlIssue, CrawlPage } from '../../src/services/crawl-view.ts';
import { html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

interface Output {
  crawl: Crawl;
  issues: CrawlIssue[];
  pages: CrawlPage[];
}

const page = (title: string, links: string[]) =>
  html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="${title}: a page of the roastery's site, about coffee and how we roast it."></head>
<body><h1>${title}</h1><p>${'Fresh coffee beans roasted every day. '.repeat(40)}</p>${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</body></html>`);

let site: Site;
let directory: string;
let baseline: Output;
const path = (name: string) => join(directory, name);
const file = async (name: string, value: unknown) => {
  await writeFile(path(name), typeof value === 'string' ? value : JSON.stringify(value));
  return path(name);
};
const crawlSite = (...argv: string[]) => runInProcess(['crawl', site.url('/'), '--no-sitemap', '--no-external', ...argv], LOOPBACK);

beforeAll(async () => {
  site = await startSite({
    '/': page('The roastery', ['/beans', '/gone']),
    '/beans': page('Our beans', ['/']),
  });
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-crawl-gates-'));
  const run = await crawlSite('--json', '--output', path('baseline.json'));
  expect(run.code, run.stderr).toBe(0);
  baseline = JSON.parse(run.stdout);
  // What the gates below count on: a broken link (high), a score.
  expect(baseline.crawl.issues.high).toBe(1);
  expect(baseline.crawl.score).not.toBeNull();
});

afterAll(async () => {
  await site?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('--budget: reading the file', () => {
  const invalid = (why: string) => new UsageError(why);

  it('takes every key optional', () => {
    expect(parseCrawlBudget({}, invalid)).toEqual({});
    expect(parseCrawlBudget({ min_score: 70, max_issues: { high: 0, medium: 5, low: 50 } }, invalid)).toEqual({ min_score: 70, max_issues: { high: 0, medium: 5, low: 50 } });
  });

  it.each([
    [[], 'it is not a JSON object'],
    [{ min_score: 70, max_failed: { high: 0 } }, 'unknown key "max_failed" (known: min_score, max_issues)'],
    [{ min_score: '70' }, '"min_score" must be a number from 0 to 100; got "70"'],
    [{ min_score: 101 }, '"min_score" must be a number from 0 to 100; got 101'],
    [{ max_issues: 3 }, '"max_issues" must be an object of counts by importance; got 3'],
    [{ max_issues: { urgent: 0 } }, 'unknown key "max_issues.urgent" (known: high, medium, low)'],
    [{ max_issues: { high: 1.5 } }, '"max_issues.high" must be a whole number from 0; got 1.5'],
    [{ max_issues: { low: -1 } }, '"max_issues.low" must be a whole number from 0; got -1'],
  ])('%j: %s', (value, why) => {
    expect(() => parseCrawlBudget(value, invalid)).toThrow(new UsageError(why));
  });

  it('exits 2 naming the file and the reason, before any request: unknown key, wrong type, not JSON, unreadable', async () => {
    const before = site.requests.length;
    const cases: [string, string][] = [
      [await file('unknown.json', { min_score: 50, pages: 3 }), 'is not a valid budget: unknown key "pages" (known: min_score, max_issues).'],
      [await file('type.json', { max_issues: { high: 'none' } }), 'is not a valid budget: "max_issues.high" must be a whole number from 0; got "none".'],
      [await file('broken.json', '{"min_score": '), 'is not valid JSON'],
      [path('absent.json'), 'Cannot read --budget'],
    ];
    for (const [budget, message] of cases) {
      const run = await crawlSite('--budget', budget);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain(budget);
    }
    expect(site.requests.length).toBe(before);
  });

  it('says each broken assertion with its limit and the value', () => {
    const crawl = { ...baseline.crawl, score: 64, issues: { high: 2, medium: 1, low: 7 } };
    expect(checkCrawlBudget(crawl, { min_score: 70, max_issues: { high: 0, medium: 1, low: 5 } })).toEqual([
      '--budget min_score 70: the site scored 64.',
      '--budget max_issues.high 0: the crawl found 2 high-importance site issues.',
      '--budget max_issues.low 5: the crawl found 7 low-importance site issues.',
    ]);
    expect(checkCrawlBudget(crawl, { min_score: 64, max_issues: { high: 2 } })).toEqual([]);
  });
});

describe('--compare: reading the file', () => {
  it.each([
    ['an analyze output', [{ url: 'https://example.com/', score: 90 }], 'it is not a JSON object'],
    ['no pages', { crawl: {}, issues: [] }, 'it has no "pages"'],
    ['a crawl that failed', () => ({ ...baseline, crawl: { ...baseline.crawl, state: 'failed' } }), 'the crawl in it did not finish (its state is "failed")'],
    ['an issue without items', () => ({ ...baseline, issues: [{ id: 'broken_links', importance: 'high', count: 1 }] }), 'issues entry 1: "items" is not an array'],
    ['a page without a url', () => ({ ...baseline, pages: [{ status_code: 200 }] }), 'pages entry 1 has no "url"'],
  ])('exits 2 for %s', async (name, value, why) => {
    const compare = await file(`${name}.json`, typeof value === 'function' ? value() : value);
    const run = await crawlSite('--compare', compare);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`--compare ${compare} is not the output of \`pagegrade crawl --json\`: ${why}.`);
  });
});

describe('the gates together', () => {
  it('prints every broken gate, the diff in the JSON, and exits 1', async () => {
    const { crawl } = baseline;
    // An earlier crawl that was better: no broken link, a higher score, graded good; /old was there,
    // /gone was not, and /beans answered 500.
    const earlierScore = Math.min(100, crawl.score! + 20);
    const earlier = {
      crawl: { ...crawl, id: 41, score: earlierScore, result: 'good', issues: { ...crawl.issues, high: 0 }, finished_at: '2026-11-01T09:00:00.000Z' },
      issues: baseline.issues.filter((issue) => issue.id !== 'broken_links'),
      pages: [
        ...baseline.pages.filter((row) => !row.url.endsWith('/gone')).map((row) => (row.url.endsWith('/beans') ? { ...row, status_code: 500 } : row)),
        { ...baseline.pages[0], url: site.url('/old') },
      ],
    };
    const budget = await file('strict.json', { min_score: 100, max_issues: { high: 0, medium: 1000 } });
    const run = await crawlSite('--json', '--budget', budget, '--fail-on-issues', 'high', '--compare', await file('earlier.json', earlier), '--fail-on-regression');
    expect(run.code, run.stderr).toBe(1);
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output)).toEqual(['crawl', 'issues', 'pages', 'diff']);
    const { diff } = output;
    expect(diff.from).toMatchObject({ id: 41, score: earlierScore, result: 'good' });
    expect(diff.to).toMatchObject({ id: output.crawl.id, score: output.crawl.score });
    expect(diff.score_delta).toBe(output.crawl.score - earlierScore);
    expect(diff.issues.find((issue: { id: string }) => issue.id === 'broken_links')).toMatchObject({
      importance: 'high',
      new: [expect.objectContaining({ url: site.url('/gone'), status_code: 404 })],
      fixed: [],
      persisting: 0,
    });
    expect(diff.pages).toEqual({ added: 1, removed: 1, status_changed: [{ url: site.url('/beans'), from: 500, to: 200 }] });
    const gates = run.stderr.split('\n').filter((line) => line.startsWith('Gate failed: '));
    const drop = earlierScore - output.crawl.score;
    expect(gates).toEqual([
      'Gate failed: 1 site issue of importance high, and --fail-on-issues is high.',
      `Gate failed: --budget min_score 100: the site scored ${output.crawl.score}.`,
      'Gate failed: --budget max_issues.high 0: the crawl found 1 high-importance site issue.',
      ...(drop >= 10 ? [`Gate failed: --fail-on-regression: the score fell by ${drop} (${earlierScore} → ${output.crawl.score}).`] : []),
      ...(output.crawl.result !== 'good' ? [`Gate failed: --fail-on-regression: the result went from good to ${output.crawl.result}.`] : []),
      'Gate failed: --fail-on-regression: broken_links has 1 new finding (high importance).',
    ]);
  });

  it('passes a kept budget and a crawl no worse than its earlier self, and says what changed', async () => {
    const budget = await file('kept.json', { min_score: 0, max_issues: { high: 1 } });
    const run = await crawlSite('--budget', budget, '--compare', path('baseline.json'), '--fail-on-regression');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('Gate failed');
    expect(run.stdout).toContain('What changed since the crawl of');
    expect(run.stdout).toContain(`Score ${baseline.crawl.score} → ${baseline.crawl.score} (±0) · still ${baseline.crawl.result}`);
    expect(run.stdout).toMatch(/broken_links \[high\]: 0 new, 0 fixed, 1 persisting/);
    expect(run.stdout).toContain('Pages: 0 added, 0 removed, 0 with another status');
  });
});
