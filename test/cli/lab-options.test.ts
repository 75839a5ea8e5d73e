// `analyze --lab [--lab-profile]`, `crawl --lab [--lab-pages] [--lab-profile]` and a budget's lab
// assertions, in-process through runCli: what each option is read as, and the usage errors (exit 2)
// found before anything is fetched or a browser started: a profile other than mobile or desktop, a lab
// option without --lab, --lab-pages outside 1..200, --lab without Chromium (as --render), and a budget
// with lab keys or categories.accessibility without --lab.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/command.ts';
import { analyze } from '../../src/cli/commands/analyze.ts';
import { crawl } from '../../src/cli/commands/crawl.ts';
import { readAnalyzeOptions } from '../../src/cli/analyze-options.ts';
import { readCrawlOptions } from '../../src/cli/crawl-options.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

const NO_CHROMIUM = { ...LOOPBACK, PAGEGRADE_CHROMIUM_PATH: '/nonexistent/chromium' };
/** Never requested: every run here stops at its options. */
const URL = 'https://example.com/';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-lab-options-'));
});

afterAll(() => rm(directory, { recursive: true, force: true }));

async function budgetFile(name: string, content: unknown): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, JSON.stringify(content));
  return path;
}

async function expectUsageError(args: string[], message: string, env: Record<string, string> = NO_CHROMIUM): Promise<void> {
  const run = await runInProcess(args, env);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain(message);
  expect(run.stderr).toContain(`Usage: pagegrade ${args[0]}`);
  expect(run.stdout).toBe('');
}

describe('analyze --lab', () => {
  const labOf = async (...argv: string[]) => (await readAnalyzeOptions(parseCommandArgs(analyze, [URL, ...argv]))).lab;

  it('asks for a lab audit under mobile unless --lab-profile says desktop; none without --lab', async () => {
    expect(await labOf('--lab')).toBe('mobile');
    expect(await labOf('--lab', '--lab-profile', 'mobile')).toBe('mobile');
    expect(await labOf('--lab-profile', 'desktop', '--lab')).toBe('desktop');
    expect(await labOf()).toBeUndefined();
    expect(await labOf('--render')).toBeUndefined();
  });

  it.each([
    [['--lab', '--lab-profile', 'tablet'], '--lab-profile must be "mobile" or "desktop"; got "tablet".'],
    [['--lab', '--lab-profile', 'Mobile'], '--lab-profile must be "mobile" or "desktop"; got "Mobile".'],
    [['--lab', '--lab-profile', ''], '--lab-profile must be "mobile" or "desktop"; got "".'],
    [['--lab-profile', 'desktop'], '--lab-profile needs --lab'],
    [['--lab', '--lab-profile'], "Option '--lab-profile <value>' argument missing"],
    [['--lab=1'], "Option '--lab' does not take an argument"],
  ])('%j is a usage error', async (argv, message) => {
    await expectUsageError(['analyze', URL, ...argv], message);
  });

  it('without Chromium is a usage error naming the path it looked at, as --render', async () => {
    await expectUsageError(['analyze', '--lab', URL], '--lab needs Chromium, and there is none at /nonexistent/chromium (set PAGEGRADE_CHROMIUM_PATH');
    await expectUsageError(['analyze', '--lab', '--lab-profile', 'desktop', URL, URL], '--lab needs Chromium, and there is none at /nonexistent/chromium');
    await expectUsageError(['analyze', '--render', '--lab', URL], '--render and --lab need Chromium, and there is none at /nonexistent/chromium');
  });

  it('--help documents --lab and --lab-profile, and that audits run one at a time', async () => {
    const run = await runInProcess(['analyze', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: pagegrade analyze <url\.\.\.> .*\[--lab \[--lab-profile mobile\|desktop\]\]/);
    expect(run.stdout).toMatch(/\n {2}--lab {16}also make a lab audit of each page/);
    expect(run.stdout).toMatch(/\n {2}--lab-profile <name> mobile \(the default/);
    expect(run.stdout).toContain('Audits run one at a time');
    expect(run.stdout).toContain('"lab": {"lcp_ms": 2500, "cls": 0.1, "tbt_ms": 200, "fcp_ms":');
  });
});

describe('analyze --budget with lab assertions', () => {
  it('takes lab limits and categories.accessibility with --lab (then: no Chromium, the next usage error)', async () => {
    const budget = await budgetFile('lab.json', { lab: { lcp_ms: 2500, cls: 0.1, tbt_ms: 200, fcp_ms: 1800 }, categories: { accessibility: 90, seo: 80 } });
    const options = await readAnalyzeOptions(parseCommandArgs(analyze, [URL, '--lab', '--budget', budget]));
    expect(options.gates.budget).toEqual({ lab: { lcp_ms: 2500, cls: 0.1, tbt_ms: 200, fcp_ms: 1800 }, categories: { accessibility: 90, seo: 80 } });
    await expectUsageError(['analyze', URL, '--lab', '--budget', budget], '--lab needs Chromium');
  });

  it.each([
    [{ lab: { lcp_ms: 2500, cls: 0.1 } }, 'sets lab.lcp_ms and lab.cls, which only a lab audit measures: add --lab.'],
    [{ categories: { accessibility: 90 } }, 'sets categories.accessibility, which only a lab audit measures: add --lab.'],
    [{ lab: { tbt_ms: 0 }, categories: { seo: 50, accessibility: 0 } }, 'sets lab.tbt_ms and categories.accessibility, which only a lab audit measures: add --lab.'],
    [{ lab: {} }, 'sets lab, which only a lab audit measures: add --lab.'],
  ])('%j without --lab is a usage error saying so', async (content, why) => {
    const budget = await budgetFile('needs-lab.json', content);
    await expectUsageError(['analyze', URL, '--budget', budget], `--budget ${budget} ${why}`);
  });

  it('a budget without lab assertions needs no --lab', async () => {
    const budget = await budgetFile('plain.json', { categories: { seo: 80, performance: 10 } });
    const options = await readAnalyzeOptions(parseCommandArgs(analyze, [URL, '--budget', budget]));
    expect(options.lab).toBeUndefined();
    expect(options.gates.budget).toEqual({ categories: { seo: 80, performance: 10 } });
  });

  it.each([
    [{ lab: { lcp: 2500 } }, 'unknown key "lab.lcp" (known: lcp_ms, cls, tbt_ms, fcp_ms)'],
    [{ lab: { ttfb_ms: 600 } }, 'unknown key "lab.ttfb_ms" (known: lcp_ms, cls, tbt_ms, fcp_ms)'],
    [{ lab: { cls: -0.1 } }, '"lab.cls" must be a number from 0; got -0.1'],
    [{ lab: { lcp_ms: '2500' } }, '"lab.lcp_ms" must be a number from 0; got "2500"'],
    [{ lab: { fcp_ms: null } }, '"lab.fcp_ms" must be a number from 0; got null'],
    [{ lab: [2500] }, '"lab" must be an object of limits by metric; got [2500]'],
    [{ categories: { accessibility: 101 } }, '"categories.accessibility" must be a number from 0 to 100; got 101'],
  ])('%j is not a valid budget, with or without --lab', async (content, why) => {
    const budget = await budgetFile('invalid.json', content);
    for (const lab of [['--lab'], []]) {
      await expectUsageError(['analyze', URL, ...lab, '--budget', budget], `--budget ${budget} is not a valid budget: ${why}.`);
    }
  });
});

describe('crawl --lab', () => {
  const labOf = async (...argv: string[]) => (await readCrawlOptions(parseCommandArgs(crawl, [URL, ...argv]))).lab;

  it('reads the profile (mobile unless desktop) and the pages (20 unless --lab-pages); nothing without --lab', async () => {
    expect(await labOf('--lab')).toEqual({ profile: 'mobile', pages: 20 });
    expect(await labOf('--lab', '--lab-pages', '1', '--lab-profile', 'desktop')).toEqual({ profile: 'desktop', pages: 1 });
    expect(await labOf('--lab', '--lab-pages', '200')).toEqual({ profile: 'mobile', pages: 200 });
    expect(await labOf()).toBeUndefined();
  });

  it.each([
    [['--lab', '--lab-pages', '0'], '--lab-pages must be a whole number from 1 to 200; got "0".'],
    [['--lab', '--lab-pages', '201'], '--lab-pages must be a whole number from 1 to 200; got "201".'],
    [['--lab', '--lab-pages=-1'], '--lab-pages must be a whole number from 1 to 200; got "-1".'],
    [['--lab', '--lab-pages', '2.5'], '--lab-pages must be a whole number from 1 to 200; got "2.5".'],
    [['--lab', '--lab-pages', 'all'], '--lab-pages must be a whole number from 1 to 200; got "all".'],
    [['--lab-pages', '0'], '--lab-pages must be a whole number from 1 to 200; got "0".'],
    [['--lab-pages', '5'], '--lab-pages needs --lab'],
    [['--lab-profile', 'desktop'], '--lab-profile needs --lab'],
    [['--lab', '--lab-profile', 'tablet'], '--lab-profile must be "mobile" or "desktop"; got "tablet".'],
  ])('%j is a usage error', async (argv, message) => {
    await expectUsageError(['crawl', URL, ...argv], message);
  });

  it('without Chromium is a usage error saying so, as --render, before anything is crawled', async () => {
    await expectUsageError(['crawl', URL, '--lab', '--lab-pages', '5'], '--lab needs Chromium, and there is none at /nonexistent/chromium');
  });

  it('--help documents --lab, --lab-pages and --lab-profile', async () => {
    const run = await runInProcess(['crawl', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[--lab [--lab-pages <n>] [--lab-profile mobile|desktop]]');
    expect(run.stdout).toMatch(/\n {2}--lab-pages <n> {6}pages that get a lab audit, 1 to 200 \(default 20\); needs --lab/);
  });
});
