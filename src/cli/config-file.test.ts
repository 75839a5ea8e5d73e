// The config file's reader, and how readAnalyzeOptions merges it under the command line: what
// test/cli/analyze-config.test.ts does not need a run for.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnalyzeOptions } from './analyze-options.ts';
import { parseCommandArgs } from './command.ts';
import { analyze } from './commands/analyze.ts';
import { CONFIG_FILE_NAME, findConfigFile, parseConfigFile } from './config-file.ts';

const URL = 'https://example.com/';
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-config-file-'));
});

afterAll(() => rm(directory, { recursive: true, force: true }));

const parse = (content: unknown) => parseConfigFile('ci.json', '/pipelines/ci/ci.json', typeof content === 'string' ? content : JSON.stringify(content));

describe('parseConfigFile', () => {
  it('reads the example of docs/cli.md: outputs resolved against the file\'s folder, formats by name', () => {
    const config = parse({
      $schema: 'https://example.com/pagegrade.schema.json',
      urls: [URL, 'https://example.com/pricing'],
      budget: { min_score: 80, categories: { seo: 90 }, must_pass: ['title'], max_failed: { high: 0 } },
      outputs: ['report.html', '../out/report.sarif', '/abs/r.junit.xml'],
      render: false,
      lab: false,
      fail_on: 'bad',
      min_score: 70,
    });
    expect(config).toEqual({
      name: 'ci.json',
      urls: [URL, 'https://example.com/pricing'],
      budget: { min_score: 80, categories: { seo: 90 }, must_pass: ['title'], max_failed: { high: 0 } },
      outputs: [
        { path: '/pipelines/ci/report.html', format: 'html' },
        { path: '/pipelines/out/report.sarif', format: 'sarif' },
        { path: '/abs/r.junit.xml', format: 'junit' },
      ],
      render: false,
      lab: false,
      failOn: 'bad',
      minScore: 70,
    });
  });

  it('an empty object is a file with nothing set; a byte order mark is skipped', () => {
    expect(parse('\uFEFF{}')).toEqual({ name: 'ci.json' });
  });

  it('suggests the nearest key only when one is within two edits', () => {
    expect(() => parse({ failon: 'bad' })).toThrow(/unknown key "failon" \(known: [^)]*\)\nDid you mean "fail_on"\?$/);
    expect(() => parse({ colour: true })).toThrow(/unknown key "colour" \(known: [^)]*\)$/);
  });

  it('names the same output twice as an error, whatever the spelling', () => {
    expect(() => parse({ outputs: ['report.html', './report.html'] })).toThrow('ci.json: "outputs[1]" names /pipelines/ci/report.html again');
  });
});

describe('findConfigFile', () => {
  it('looks in cwd only when the command line names no URL; no file there is no config', async () => {
    const cwd = await mkdtemp(join(directory, 'cwd-'));
    expect(await findConfigFile(undefined, false, cwd)).toBeUndefined();
    await writeFile(join(cwd, CONFIG_FILE_NAME), 'not json');
    expect(await findConfigFile(undefined, true, cwd)).toBeUndefined();
    await expect(findConfigFile(undefined, false, cwd)).rejects.toThrow(`${CONFIG_FILE_NAME}: not valid JSON`);
    await expect(findConfigFile('', true, cwd)).rejects.toThrow('--config needs a file name.');
  });
});

describe('readAnalyzeOptions with a config file', () => {
  async function optionsWith(content: unknown, ...argv: string[]) {
    const cwd = await mkdtemp(join(directory, 'options-'));
    await writeFile(join(cwd, CONFIG_FILE_NAME), JSON.stringify(content));
    return readAnalyzeOptions(parseCommandArgs(analyze, argv), cwd);
  }

  it('takes the file\'s values the command line does not give', async () => {
    const options = await optionsWith({ urls: [URL], render: true, fail_on: 'decent', min_score: 70, budget: { must_pass: ['title'] } });
    expect(options).toMatchObject({ targets: [URL], render: true, lab: undefined, needsChromium: [`"render": true in ${CONFIG_FILE_NAME}`] });
    expect(options.gates).toMatchObject({ failOn: 'decent', minScore: 70, budget: { must_pass: ['title'] } });
  });

  it('the command line replaces them: --fail-on, --min-score', async () => {
    const options = await optionsWith({ urls: [URL], fail_on: 'decent', min_score: 70 }, '--fail-on', 'bad', '--min-score', '0');
    expect(options.gates).toMatchObject({ failOn: 'bad', minScore: 0 });
  });

  it('"lab": true is --lab: mobile unless --lab-profile says otherwise, and it lets a budget judge lab metrics', async () => {
    const file = { urls: [URL], lab: true, budget: { lab: { lcp_ms: 2500 } } };
    expect((await optionsWith(file)).lab).toBe('mobile');
    expect((await optionsWith(file, '--lab-profile', 'desktop')).lab).toBe('desktop');
    expect((await optionsWith(file, '--lab')).needsChromium).toEqual(['--lab']);
    await expect(optionsWith({ urls: [URL], lab: false }, '--lab-profile', 'desktop')).rejects.toThrow('--lab-profile needs --lab');
  });
});
