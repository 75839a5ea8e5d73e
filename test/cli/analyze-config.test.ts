// `pagegrade analyze` with a config file, in-process through runCli against a loopback site: --config,
// or ./pagegrade.config.json when the command line names no URL; its values under the command line's;
// its outputs relative to its folder; its gates; and a bad file as a usage error (2) before any fetch.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

const NO_CHROMIUM = { ...LOOPBACK, PAGEGRADE_CHROMIUM_PATH: '/nonexistent/chromium' };
const KNOWN = '(known: urls, budget, outputs, render, lab, fail_on, min_score, $schema)';
const WORSE_PAGE = goodPage().replace(/<title>[^<]*<\/title>/, '');

let site: Site;
let good: string;
let worse: string;
let notFound: string;
/** Served, but a run that stops at its options never asks for it. */
let never: string;
let directory: string;

beforeAll(async () => {
  site = await startSite({ '/good': html(goodPage()), '/worse': html(WORSE_PAGE), '/gone': html(goodPage(), 404), '/never': html(goodPage()) });
  [good, worse, notFound, never] = ['/good', '/worse', '/gone', '/never'].map((path) => site.url(path));
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-config-'));
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

/** A new folder under the test's directory. */
async function folder(...names: string[]): Promise<string> {
  const path = join(directory, ...names);
  await mkdir(path, { recursive: true });
  return path;
}

async function configFile(path: string, content: unknown): Promise<string> {
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** runCli with the process in `cwd` for the run, where ./pagegrade.config.json is looked for. */
async function runIn(cwd: string, args: string[], env: Record<string, string> = LOOPBACK) {
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    return await runInProcess(args, env);
  } finally {
    process.chdir(previous);
  }
}

const exists = (path: string) => stat(path).then(() => true, () => false);
const gateLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('pagegrade: gate failed: '));

describe('analyze with ./pagegrade.config.json', () => {
  it('names no URL: the file in the current directory gives the URLs, the gates and the outputs', async () => {
    const cwd = await folder('found');
    await configFile(join(cwd, 'pagegrade.config.json'), { $schema: 'https://example.com/schema.json', urls: [good], min_score: 100, outputs: ['report.json'] });
    const run = await runIn(cwd, ['analyze', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ url: good });
    expect(gateLines(run.stderr)).toEqual(['pagegrade: gate failed: --min-score 100: 1 of 1 pages scored below 100.']);
    expect(JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8'))).toEqual(JSON.parse(run.stdout));
  });

  it('a command naming URLs (as arguments or with --file) does not read it at all', async () => {
    const cwd = await folder('ignored');
    await configFile(join(cwd, 'pagegrade.config.json'), '{"urls": [ not json');
    const urls = await configFile(join(cwd, 'urls.txt'), `${good}\n`);
    for (const args of [[good], ['--file', urls]]) {
      const run = await runIn(cwd, ['analyze', ...args, '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ url: good });
    }
  });

  it('no file there and no URL named is the usage error it was', async () => {
    const run = await runIn(await folder('empty'), ['analyze']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Name at least one URL');
  });
});

describe('analyze --config', () => {
  it('its urls are analysed when no URL is named; URLs named replace them, its other values still apply', async () => {
    const path = await configFile(join(await folder('ci'), 'pagegrade.json'), { urls: [worse, good], min_score: 100 });
    const fromFile = await runInProcess(['analyze', '--config', path, '--json'], LOOPBACK);
    expect(fromFile.code).toBe(1);
    expect(JSON.parse(fromFile.stdout).map((report: { url: string }) => report.url)).toEqual([worse, good]);

    const named = await runInProcess(['analyze', good, '--config', path, '--json'], LOOPBACK);
    expect(named.code).toBe(1);
    expect(JSON.parse(named.stdout)).toMatchObject({ url: good });
    expect(gateLines(named.stderr)).toEqual(['pagegrade: gate failed: --min-score 100: 1 of 1 pages scored below 100.']);
  });

  it('outputs are relative to the config file\'s folder, not to the current directory', async () => {
    const ci = await folder('outputs', 'ci');
    await mkdir(join(ci, 'reports'));
    const cwd = await folder('outputs', 'elsewhere');
    await configFile(join(ci, 'pagegrade.json'), { urls: [good], outputs: ['report.html', 'reports/report.sarif', join(directory, 'outputs', 'absolute.json')] });
    const run = await runIn(cwd, ['analyze', '--config', '../ci/pagegrade.json']);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(ci, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    expect(JSON.parse(await readFile(join(ci, 'reports', 'report.sarif'), 'utf8'))).toMatchObject({ version: '2.1.0' });
    expect(JSON.parse(await readFile(join(directory, 'outputs', 'absolute.json'), 'utf8'))).toMatchObject({ url: good });
    expect(await exists(join(cwd, 'report.html'))).toBe(false);
  });

  it('an option on the command line replaces the file\'s value: --min-score, and any --output the whole outputs', async () => {
    const ci = await folder('override');
    const path = await configFile(join(ci, 'pagegrade.json'), { urls: [good], min_score: 100, outputs: ['from-file.json', 'from-file.html'] });
    const mine = join(ci, 'mine.json');
    const run = await runInProcess(['analyze', '--config', path, '--min-score', '0', '--output', mine], LOOPBACK);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(await readFile(mine, 'utf8'))).toMatchObject({ url: good });
    expect(await exists(join(ci, 'from-file.json'))).toBe(false);
    expect(await exists(join(ci, 'from-file.html'))).toBe(false);
  });

  it('its gates: fail_on and budget fail with exit 1; a URL that cannot be analysed still wins (3)', async () => {
    const ci = await folder('gates');
    const failOn = await runInProcess(['analyze', '--config', await configFile(join(ci, 'fail-on.json'), { urls: [notFound], fail_on: 'bad' })], LOOPBACK);
    expect(failOn.code).toBe(1);
    expect(gateLines(failOn.stderr)).toEqual(['pagegrade: gate failed: --fail-on bad: 1 of 1 pages graded bad.']);

    const budget = await runInProcess(['analyze', '--config', await configFile(join(ci, 'budget.json'), { urls: [worse], budget: { must_pass: ['title'] } })], LOOPBACK);
    expect(budget.code).toBe(1);
    expect(gateLines(budget.stderr)).toEqual([expect.stringContaining(`--budget must_pass title: ${worse} failed it`)]);

    const unreachable = await runInProcess(['analyze', '--config', await configFile(join(ci, 'three.json'), { urls: [worse, 'ftp://example.com/'], min_score: 100 })], LOOPBACK);
    expect(unreachable.code).toBe(3);
  });

  it('"lab": false and "render": false are accepted, and make no lab audit', async () => {
    const path = await configFile(join(await folder('no-lab'), 'pagegrade.json'), { urls: [good], lab: false, render: false });
    const run = await runInProcess(['analyze', '--config', path, '--json'], NO_CHROMIUM);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).not.toHaveProperty('lab');
  });

  it('"lab": true (or "render": true) without Chromium is a usage error saying so, as --lab', async () => {
    const ci = await folder('lab');
    const lab = await configFile(join(ci, 'lab.json'), { urls: [never], lab: true });
    const labRun = await runInProcess(['analyze', '--config', lab], NO_CHROMIUM);
    expect(labRun.code).toBe(2);
    expect(labRun.stderr).toContain(`"lab": true in ${lab} needs Chromium, and there is none at /nonexistent/chromium (set PAGEGRADE_CHROMIUM_PATH`);

    const both = await configFile(join(ci, 'both.json'), { urls: [never], render: true, lab: true });
    const bothRun = await runInProcess(['analyze', '--config', both, '--render'], NO_CHROMIUM);
    expect(bothRun.code).toBe(2);
    expect(bothRun.stderr).toContain(`--render and "lab": true in ${both} need Chromium, and there is none at /nonexistent/chromium`);
    expect(site.requests).not.toContain('/never');
  });
});

describe('a bad config file is a usage error (2) naming the file and the key, before anything is fetched', () => {
  it('unknown key: exactly the message of the spec, naming the file as found, then the nearest key', async () => {
    const cwd = await folder('unknown-key');
    await configFile(join(cwd, 'pagegrade.config.json'), { urls: [never], min_scor: 80 });
    const run = await runIn(cwd, ['analyze']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n').slice(0, 2)).toEqual([`pagegrade.config.json: unknown key "min_scor" ${KNOWN}`, 'Did you mean "min_score"?']);
    expect(run.stderr).toContain('Usage: pagegrade analyze');
    expect(run.stdout).toBe('');
    expect(site.requests).not.toContain('/never');
  });

  it('--config names it as given', async () => {
    const cwd = await folder('given');
    await configFile(join(cwd, 'ci.json'), { urls: [never], colour: true });
    const run = await runIn(cwd, ['analyze', '--config', 'ci.json']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`ci.json: unknown key "colour" ${KNOWN}`);
  });

  it.each([
    ['not JSON', '{"urls": ["https://example.com/"],}', ': not valid JSON: '],
    ['not an object', '["https://example.com/"]', ': the file must hold a JSON object of options; it holds an array'],
    ['urls not an array', { urls: 'https://example.com/' }, ': "urls" must be an array of URLs (strings), at least one; got "https://example.com/"'],
    ['urls empty', { urls: [] }, ': "urls" must be an array of URLs (strings), at least one; got []'],
    ['render not a boolean', { render: 'yes' }, ': "render" must be true or false; got "yes"'],
    ['lab not a boolean', { lab: 1 }, ': "lab" must be true or false; got 1'],
    ['fail_on unknown', { fail_on: 'great' }, ': "fail_on" must be "bad" or "decent"; got "great"'],
    ['min_score not whole', { min_score: 70.5 }, ': "min_score" must be a whole number from 0 to 100; got 70.5'],
    ['min_score too high', { min_score: 101 }, ': "min_score" must be a whole number from 0 to 100; got 101'],
    ['min_score a string', { min_score: '70' }, ': "min_score" must be a whole number from 0 to 100; got "70"'],
    ['outputs not an array', { outputs: 'report.html' }, ': "outputs" must be an array of file names; got "report.html"'],
    ['an output of no format', { outputs: ['report.html', 'report'] }, ': "outputs[1]" "report": cannot tell the format from the name'],
    ['an output that cannot be written', { outputs: ['missing/report.html'] }, ': cannot write "outputs" '],
    ['$schema not a string', { $schema: 1 }, ': "$schema" must be a string; got 1'],
    ['budget not an object', { budget: [80] }, ': "budget" must be an object, as a --budget file holds; got [80]'],
    ['budget unknown key', { budget: { max_score: 90 } }, ': unknown key "budget.max_score" (known: min_score, categories, must_pass, max_failed, lab)'],
    ['budget wrong type', { budget: { categories: { seo: '90' } } }, ': "budget.categories.seo" must be a number from 0 to 100; got "90"'],
    ['budget unknown check', { budget: { must_pass: ['titel'] } }, ': "budget.must_pass" names no known check: "titel"'],
    ['budget lab without lab', { budget: { lab: { lcp_ms: 2500 } } }, ': "budget" sets lab.lcp_ms, which only a lab audit measures: add "lab": true or --lab'],
  ])('%s', async (name, content, message) => {
    const value = typeof content === 'string' || 'urls' in content ? content : { urls: [never], ...content };
    const path = await configFile(join(await folder('bad'), `${name.replaceAll(' ', '-')}.json`), value);
    const run = await runInProcess(['analyze', '--config', path], LOOPBACK);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${path}${message}`);
    expect(run.stdout).toBe('');
    expect(site.requests).not.toContain('/never');
  });

  it('no "urls" is an error only when the command line names no URL', async () => {
    const path = await configFile(join(await folder('bad'), 'no-urls.json'), { min_score: 0 });
    const none = await runInProcess(['analyze', '--config', path], LOOPBACK);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`${path} has no "urls": name the URLs there, as arguments or with --file.`);
    const named = await runInProcess(['analyze', good, '--config', path], LOOPBACK);
    expect(named.code, named.stderr).toBe(0);
  });

  it('a bad --config is read, and refused, even when URLs are named', async () => {
    const path = await configFile(join(await folder('bad'), 'named.json'), { min_score: 'high' });
    const run = await runInProcess(['analyze', never, '--config', path], LOOPBACK);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path}: "min_score" must be a whole number`);
    expect(site.requests).not.toContain('/never');
  });

  it('--config that cannot be read: missing, a directory, larger than 1 MiB', async () => {
    const bad = await folder('bad');
    const missing = join(bad, 'missing.json');
    const large = await configFile(join(bad, 'large.json'), `{"urls": ["${never}"], "$schema": "${'x'.repeat(1024 * 1024)}"}`);
    const largeSize = (await stat(large)).size;
    for (const [path, message] of [
      [missing, `Cannot read --config ${missing}: ENOENT`],
      [bad, `Cannot read --config ${bad}: it is not a file`],
      [large, `${large}: the file is ${largeSize} bytes; a config file may have at most 1048576 (1 MiB)`],
    ]) {
      const run = await runInProcess(['analyze', '--config', path], LOOPBACK);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
    expect(site.requests).not.toContain('/never');
  });
});
