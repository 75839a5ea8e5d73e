// What `analyze` writes names its own options, never the API's parameters: a page that JavaScript
// writes, analysed without --render, is told to run analyze with --render in the text report, --json
// and every --output file, and nothing says render=1 (a report made through the API still does).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_RENDERED_REASON } from '../../src/checks/seo/javascript-dependency.ts';
import { html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

const CLI_REASON = 'The page was not rendered in a browser (run analyze with --render).';
/** Every API parameter the CLI has an option for, or none at all. */
const API_WORDS = /\b(render|async|results|privacy|lab|lab_profile)=/;
const SCRIPTED_PAGE = `<!doctype html><html lang="en"><head><title>App</title></head>
<body><div id="app"></div><script>document.getElementById('app').innerHTML = '<h1>Written by JavaScript</h1>';</script></body></html>`;

let site: Site;
let directory: string;

beforeAll(async () => {
  site = await startSite({ '/app': html(SCRIPTED_PAGE) });
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-cli-words-'));
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

describe('analyze speaks in its own options', () => {
  it('the API keeps its words for the same check', () => {
    expect(NOT_RENDERED_REASON).toContain('render=1');
  });

  it('text: the not-applicable reason names --render, never render=1', async () => {
    const run = await runInProcess(['analyze', site.url('/app')], LOOPBACK);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`: ${CLI_REASON}\n`);
    expect(run.stdout).not.toMatch(API_WORDS);
    expect(run.stderr).not.toMatch(API_WORDS);
  });

  it('--json and every --output file: the same reason, never render=1', async () => {
    const outputs = ['report.json', 'report.html', 'report.junit.xml', 'report.sarif'].map((name) => join(directory, name));
    const run = await runInProcess(['analyze', site.url('/app'), '--json', ...outputs.flatMap((path) => ['--output', path])], LOOPBACK);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).results.javascript_dependency).toMatchObject({ passed: null, reason: CLI_REASON });
    expect(run.stdout).not.toMatch(API_WORDS);
    const [json, page, ...others] = await Promise.all(outputs.map((path) => readFile(path, 'utf8')));
    expect(JSON.parse(json).results.javascript_dependency.reason).toBe(CLI_REASON);
    expect(page).toContain('run analyze with --render');
    for (const written of [json, page, ...others]) expect(written).not.toMatch(API_WORDS);
  });
});
