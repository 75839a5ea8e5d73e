// `pagegrade analyze` over several URLs (arguments and --file): progress on stderr, reports in the
// order given, the summary table, bounded concurrency, and unreachable URLs among good ones.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodPage, html, startSite, type Handler, type Site } from '../support/site-server.ts';
import { refusedUrl } from '../support/api-fixtures.ts';
import { PATIENT } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';
import { decentPage } from './pages.ts';

const ESC = '\u001b';
const SLOW_PAGES = ['/slow/1', '/slow/2', '/slow/3', '/slow/4', '/slow/5', '/slow/6'];
/** Long enough that pages would overlap if more than the allowed number were fetched at once. */
const HOLD_MS = 150;

let site: Site;
let refused: string;
let directory: string;
const inFlight = { now: 0, max: 0 };

/** Answers after a pause, counting how many of these pages are being served at the same time. */
const heldPage: Handler = (request, response: ServerResponse) => {
  inFlight.now += 1;
  inFlight.max = Math.max(inFlight.max, inFlight.now);
  response.on('close', () => (inFlight.now -= 1));
  setTimeout(() => html(goodPage())(request, response), HOLD_MS);
};

beforeAll(async () => {
  site = await startSite({
    '/a': html(goodPage()),
    '/b': decentPage,
    ...Object.fromEntries(SLOW_PAGES.map((path) => [path, heldPage])),
  });
  refused = await refusedUrl('/gone');
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-cli-'));
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

async function urlFile(lines: string[]): Promise<string> {
  const path = join(directory, `urls-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('analyze with several URLs', () => {
  it('reads --file (skipping blanks and comments) after the arguments, reports each, then a summary', async () => {
    const file = await urlFile(['# pages to audit', '', site.url('/b'), '   ', `  ${refused}  `, '# done']);
    const run = await runInProcess(['analyze', site.url('/a'), '--file', file], PATIENT);
    expect(run.code).toBe(3);
    expect(run.stdout).not.toContain(ESC);

    // Reports in the order given: arguments, then the file.
    const starts = [site.url('/a'), site.url('/b'), refused].map((url) => run.stdout.indexOf(`${url}\nScore `));
    expect(starts.slice(0, 2).every((start) => start >= 0)).toBe(true);
    expect(starts[1]).toBeGreaterThan(starts[0]);
    expect(run.stdout).toContain(`${refused}\nCould not be analysed: The server at`);

    const summary = run.stdout.slice(run.stdout.indexOf('\nSummary\n'));
    const rows = summary.split('\n');
    expect(rows).toContainEqual(expect.stringMatching(/^URL +Score {2}Verdict {2}High {2}Medium {2}Low$/));
    const scored = (url: string) => new RegExp(`^${url.replace(/[.]/g, '\\.')} +\\d+ {2}(good|decent|bad) +\\d+ +\\d+ +\\d+$`);
    expect(rows).toContainEqual(expect.stringMatching(scored(site.url('/a'))));
    expect(rows).toContainEqual(expect.stringMatching(/ {2}decent /));
    expect(rows).toContainEqual(expect.stringContaining(`${refused}  not analysed: The server at`));
    expect(rows).toContainEqual(expect.stringMatching(/^3 URLs: \d good, \d decent, \d bad, 1 not analysed$/));
  });

  it('shows progress on stderr, one line per finished URL when stderr is not a terminal', async () => {
    const run = await runInProcess(['analyze', site.url('/a'), refused, site.url('/b')], PATIENT);
    const progress = run.stderr.split('\n').filter((line) => line.startsWith('['));
    expect(progress).toHaveLength(3);
    expect(progress.map((line) => line.slice(0, 5)).sort()).toEqual(['[1/3]', '[2/3]', '[3/3]']);
    expect(progress).toContainEqual(expect.stringMatching(new RegExp(`^\\[\\d/3\\] \\d+ good {2}${site.url('/a')}$`)));
    expect(progress).toContainEqual(expect.stringMatching(new RegExp(`^\\[\\d/3\\] \\d+ decent {2}${site.url('/b')}$`)));
    expect(progress).toContainEqual(expect.stringContaining(`not analysed  ${refused}: The server at`));
    expect(run.stderr).not.toContain(ESC);
    expect(run.stderr).toContain('pagegrade: 1 of 3 URLs could not be analysed.');
  });

  it('prints a JSON array in the order given, with {url, error} for what could not be analysed', async () => {
    const run = await runInProcess(['analyze', refused, site.url('/a'), 'not a url', site.url('/b'), '--json'], PATIENT);
    expect(run.code).toBe(3);
    const reports = JSON.parse(run.stdout);
    expect(reports).toHaveLength(4);
    expect(reports[0]).toEqual({ url: refused, error: expect.stringContaining('refused') });
    expect(reports[1]).toMatchObject({ url: site.url('/a'), result: 'good', page: { status_code: 200 } });
    expect(reports[2]).toEqual({ url: 'not a url', error: expect.stringContaining('absolute URL') });
    expect(reports[3]).toMatchObject({ url: site.url('/b'), result: 'decent' });
  });

  it('never fetches more pages at once than --concurrency allows', async () => {
    inFlight.max = 0;
    const run = await runInProcess(['analyze', ...SLOW_PAGES.map((path) => site.url(path)), '--concurrency', '2', '--json'], PATIENT);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).map((report: { url: string }) => report.url)).toEqual(SLOW_PAGES.map((path) => site.url(path)));
    expect(inFlight.max).toBeGreaterThan(0);
    expect(inFlight.max).toBeLessThanOrEqual(2);
  });
});
