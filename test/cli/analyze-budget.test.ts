// `pagegrade analyze --budget <file>`, in-process through runCli: each broken assertion is one stderr line
// naming it, the URL, the limit and the value; any broken is exit 1, combined with the other gates the
// way they combine (a URL not analysed, 3, still outranks it); a bad budget file is a usage error.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allChecks } from '../../src/checks/index.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

const WEIGHTS: Record<string, number> = { high: 10, medium: 5, low: 2 };
/** No title, no h1: the good page fails title and headings (high) besides what fails on plain http. */
const WORSE_PAGE = goodPage().replace(/<title>[^<]*<\/title>/, '').replace('<h1>Mountain coffee</h1>', '');

interface JsonReport {
  url: string;
  score: number;
  results: Record<string, { passed: boolean | null; importance: string; category: string }>;
}

let site: Site;
let good: string;
let worse: string;
let directory: string;

async function budgetFile(name: string, content: unknown): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** docs/checks.md's category score, worked out here from the --json results. */
function categoryScore(report: JsonReport, category: string): number {
  const applicable = Object.values(report.results).filter((result) => result.category === category && result.passed !== null);
  const points = (results: typeof applicable) => results.reduce((sum, result) => sum + WEIGHTS[result.importance], 0);
  return Math.round((100 * points(applicable.filter((result) => result.passed))) / points(applicable));
}

const gateLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('pagegrade: gate failed: '));

beforeAll(async () => {
  site = await startSite({ '/good': html(goodPage()), '/worse': html(WORSE_PAGE) });
  [good, worse] = [site.url('/good'), site.url('/worse')];
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-budget-'));
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

describe('analyze --budget', () => {
  it('one line per broken assertion (name and limit, URL, value), exit 1; what holds says nothing', async () => {
    const budget = await budgetFile('strict.json', {
      min_score: 100,
      categories: { seo: 100, performance: 0 },
      must_pass: ['title', 'language', 'headings'],
      max_failed: { high: 1, medium: 20 },
    });
    const run = await runInProcess(['analyze', worse, '--json', '--budget', budget], LOOPBACK);
    expect(run.code).toBe(1);
    const report: JsonReport = JSON.parse(run.stdout);
    const highFailed = Object.keys(report.results).filter((id) => report.results[id].passed === false && report.results[id].importance === 'high');
    expect(highFailed).toEqual(['title', 'headings', 'https_encryption']);
    const title = (id: string) => allChecks.find((check) => check.id === id)?.failureTitle;
    expect(gateLines(run.stderr)).toEqual([
      `pagegrade: gate failed: --budget min_score 100: ${worse} scored ${report.score}.`,
      `pagegrade: gate failed: --budget categories.seo 100: ${worse} scored ${categoryScore(report, 'seo')} in SEO.`,
      `pagegrade: gate failed: --budget must_pass title: ${worse} failed it (${title('title')}).`,
      `pagegrade: gate failed: --budget must_pass headings: ${worse} failed it (${title('headings')}).`,
      `pagegrade: gate failed: --budget max_failed.high 1: ${worse} failed 3 high-importance checks (title, headings, https_encryption).`,
    ]);
  });

  it('a budget the page meets: exit 0; a must_pass check that does not apply is noted on stderr, not failed', async () => {
    const budget = await budgetFile('met.json', { min_score: 50, categories: { seo: 80 }, must_pass: ['title', 'http2'], max_failed: { high: 1 } });
    const run = await runInProcess(['analyze', good, '--json', '--budget', budget], LOOPBACK);
    expect(run.code).toBe(0);
    const report: JsonReport & { results: Record<string, { reason?: string }> } = JSON.parse(run.stdout);
    expect(report.results.http2).toMatchObject({ passed: null, reason: expect.any(String) });
    expect(run.stderr).toBe(`pagegrade: --budget must_pass http2 not checked for ${good}: the check does not apply (${report.results.http2.reason}).\n`);
  });

  it('combines with the other gates: a met budget does not hide a failed --min-score; a URL not analysed still wins (3)', async () => {
    const met = await budgetFile('met-too.json', { min_score: 0 });
    const minScore = await runInProcess(['analyze', good, '--budget', met, '--min-score', '100'], LOOPBACK);
    expect(minScore.code).toBe(1);
    expect(gateLines(minScore.stderr)).toEqual(['pagegrade: gate failed: --min-score 100: 1 of 1 pages scored below 100.']);

    const broken = await budgetFile('broken.json', { must_pass: ['title'] });
    const notAnalyzed = await runInProcess(['analyze', worse, 'ftp://example.com/', '--budget', broken], LOOPBACK);
    expect(notAnalyzed.code).toBe(3);
    expect(gateLines(notAnalyzed.stderr)).toEqual([expect.stringContaining(`--budget must_pass title: ${worse} failed it`)]);
  });
});

describe.concurrent('analyze --budget: a bad budget file is a usage error (2), said before anything is analysed', () => {
  it.each([
    ['missing.json', null, 'Cannot read --budget'],
    ['not-json.json', '{"min_score": 80,}', 'is not valid JSON'],
    ['unknown-key.json', { min_score: 80, max_score: 90 }, 'is not a valid budget: unknown key "max_score"'],
    ['wrong-type.json', { categories: { seo: '90' } }, 'is not a valid budget: "categories.seo" must be a number from 0 to 100; got "90"'],
  ])('%s', async (name, content, message) => {
    const path = content === null ? join(directory, name) : await budgetFile(name, content);
    const run = await runInProcess(['analyze', 'https://example.com/', '--budget', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain(path);
    expect(run.stdout).toBe('');
  });
});
