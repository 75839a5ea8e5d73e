// `pagegrade analyze --compare <earlier.json> [--fail-on-regression]`, in-process through runCli: a page
// the test changes between runs is compared with its earlier `--json` output, as a CI job would.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { PATIENT } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

const UNTITLED = goodPage().replace(/<title>[^<]*<\/title>/, '');

let site: Site;
let page: string;
let directory: string;
/** The page's first --json output, good and titled. */
let first: string;

async function save(name: string, content: unknown): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

beforeAll(async () => {
  site = await startSite({ '/page': html(goodPage()), '/other': html(goodPage('Another page about mountain coffee')) });
  page = site.url('/page');
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-compare-'));
  const run = await runInProcess(['analyze', page, '--json'], PATIENT);
  expect(run.code).toBe(0);
  first = await save('first.json', run.stdout);
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

describe('analyze --compare', () => {
  it('an unchanged page: nothing newly failing, not regressed, exit 0 with --fail-on-regression', async () => {
    const run = await runInProcess(['analyze', page, '--compare', first, '--fail-on-regression'], PATIENT);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/\nWhat changed since \d{4}-\d{2}-\d{2}T[\d:.]+Z\n {2}Score (\d+) → \1 \(±0\) · still good\n/);
    expect(run.stdout).toContain('  No check newly failing or fixed.');
    expect(run.stdout).not.toContain('Got worse');
  });

  let worse: string;

  it('a page made worse (title removed): exit 1 saying why, and --json says regressed with title newly failing', async () => {
    site.route('/page', html(UNTITLED));
    // A score drop of 1 point counts too, so the reason line names the setting's effect as well.
    const run = await runInProcess(['analyze', page, '--json', '--compare', first, '--fail-on-regression'], {
      ...PATIENT,
      PAGEGRADE_ALERT_SCORE_DROP: '1',
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.comparison).toMatchObject({ regressed: true, fixed: [] });
    expect(Object.keys(report.comparison.from).sort()).toEqual(['generated_at', 'result', 'score']);
    expect(report.comparison.score_delta).toBe(report.score - report.comparison.from.score);
    expect(report.comparison.score_delta).toBeLessThan(0);
    expect(report.comparison.newly_failed).toContainEqual(expect.objectContaining({ id: 'title', importance: 'high' }));
    expect(run.stderr).toContain(`pagegrade: gate failed: --fail-on-regression: ${page} got worse:`);
    expect(run.stderr).toContain(`score fell by ${-report.comparison.score_delta}`);
    expect(run.stderr).toMatch(/high-importance checks newly failing: [^\n]*\btitle\b/);
    worse = await save('worse.json', run.stdout);
  });

  it('a page made better, against an output that has a comparison itself: fixed listed, exit 0; a URL not in the file says so', async () => {
    site.route('/page', html(goodPage()));
    const run = await runInProcess(['analyze', page, site.url('/other'), '--compare', worse, '--fail-on-regression'], PATIENT);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ {2}Fixed \(\d+\)\n(?: {4}✓ .+\n)* {4}✓ The page has a good title\n/);
    expect(run.stdout).toContain('What changed: no earlier result for this URL to compare with.');
    expect(run.stdout).not.toContain('Got worse');
  });

  it('--json for several URLs: each analysed URL has a comparison, null when its earlier entry was an error or absent', async () => {
    const earlier = await save('several.json', [
      { url: site.url('/other'), error: 'The page could not be reached.' },
      JSON.parse(await readFile(first, 'utf8')),
    ]);
    const run = await runInProcess(['analyze', page, site.url('/other'), site.url('/new'), '--json', '--compare', earlier], PATIENT);
    expect(run.code).toBe(0);
    const [compared, wasError, absent] = JSON.parse(run.stdout);
    expect(compared.comparison).toMatchObject({ regressed: false, newly_failed: [], fixed: [], score_delta: 0 });
    expect(wasError.comparison).toBeNull();
    expect(absent.comparison).toBeNull();
  });
});

describe.concurrent('analyze --compare usage errors exit 2 before analysing anything', () => {
  it.each([
    ['a missing file', null, 'Cannot read --compare'],
    ['invalid JSON', '{"url": ', 'is not valid JSON'],
    ['JSON of something else', '{"name": "pagegrade"}', 'is not the output of `pagegrade analyze --json`: it has no "url"'],
    ['an entry with a broken result', '[{"url": "https://a.example/", "score": 90, "result": "good", "generated_at": "x", "results": {"title": {"passed": "yes"}}}]', 'entry 1: results.title.passed is not true, false or null'],
  ])('%s', async (name, content, message) => {
    const file = content === null ? join(directory, 'missing.json') : await save(`${name}.json`, content);
    const requested = site.requests.length;
    const run = await runInProcess(['analyze', site.url('/other'), '--compare', file], PATIENT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain(`--compare ${file}`);
    expect(run.stdout).toBe('');
    expect(site.requests.length).toBe(requested);
  });

  it('--fail-on-regression without --compare', async () => {
    const run = await runInProcess(['analyze', page, '--fail-on-regression'], PATIENT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--fail-on-regression needs --compare <file>');
  });
});
