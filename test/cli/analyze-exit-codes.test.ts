// The exit codes of `pagegrade analyze` (documented in its --help): 2 usage, 3 not analysed,
// 1 a gate failed, 0 otherwise; the first that applies wins.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { refusedUrl } from '../support/api-fixtures.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';
import { badPage, decentPage } from './pages.ts';

let site: Site;
let good: string;
let decent: string;
let bad: string;
let directory: string;

beforeAll(async () => {
  site = await startSite({
    '/good': html(goodPage()),
    '/decent': decentPage,
    '/bad': badPage,
    // Error pages whose markup is well made: their status alone must make them bad.
    '/missing': html(goodPage('This page is gone'), 404),
    '/broken': html(goodPage('The server failed'), 500),
    // Never answers within the test's --timeout.
    '/hangs': () => {},
  });
  [good, decent, bad] = ['/good', '/decent', '/bad'].map((path) => site.url(path));
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-cli-'));
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

async function scoreOf(url: string): Promise<{ result: string; score: number }> {
  const run = await runInProcess(['analyze', url, '--json'], LOOPBACK);
  return JSON.parse(run.stdout);
}

describe('analyze gates', () => {
  it('grades the test pages good, decent and bad', async () => {
    expect((await scoreOf(good)).result).toBe('good');
    expect((await scoreOf(decent)).result).toBe('decent');
    expect((await scoreOf(bad)).result).toBe('bad');
  });

  it('--fail-on bad: exit 1 only when some page is graded bad, and says why on stderr', async () => {
    expect((await runInProcess(['analyze', good, decent, '--fail-on', 'bad'], LOOPBACK)).code).toBe(0);
    const failed = await runInProcess(['analyze', good, bad, '--fail-on', 'bad'], LOOPBACK);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('pagegrade: gate failed: --fail-on bad: 1 of 2 pages graded bad.');
  });

  it.each([
    ['/missing', 404],
    ['/broken', 500],
  ])('--fail-on bad: a page that answers %s (%i) is graded bad and fails the gate', async (path, status) => {
    const run = await runInProcess(['analyze', site.url(path), '--fail-on', 'bad', '--json'], LOOPBACK);
    const report = JSON.parse(run.stdout);
    expect(report.page.status_code).toBe(status);
    expect(report.score).toBeGreaterThanOrEqual(50);
    expect(report.result).toBe('bad');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pagegrade: gate failed: --fail-on bad: 1 of 1 pages graded bad.');
  });

  it('--fail-on decent: exit 1 when some page is graded decent or bad', async () => {
    expect((await runInProcess(['analyze', good, '--fail-on', 'decent'], LOOPBACK)).code).toBe(0);
    const failed = await runInProcess(['analyze', decent, '--fail-on', 'decent', '--json'], LOOPBACK);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).result).toBe('decent');
  });

  it('--min-score N: exit 1 when some page scores below N', async () => {
    const { score } = await scoreOf(decent);
    expect((await runInProcess(['analyze', decent, '--min-score', String(score)], LOOPBACK)).code).toBe(0);
    const failed = await runInProcess(['analyze', decent, '--min-score', String(score + 1)], LOOPBACK);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`--min-score ${score + 1}: 1 of 1 pages scored below ${score + 1}.`);
  });

  it('a URL that cannot be analysed (3) outranks a failed gate (1)', async () => {
    const run = await runInProcess(['analyze', bad, await refusedUrl(), '--fail-on', 'bad'], LOOPBACK);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('could not be analysed');
    expect(run.stderr).toContain('gate failed');
  });

  it('--timeout overrides PAGEGRADE_FETCH_TIMEOUT_MS: a page slower than it is not analysed', async () => {
    const run = await runInProcess(['analyze', site.url('/hangs'), '--timeout', '300', '--json'], {
      ...LOOPBACK,
      PAGEGRADE_FETCH_TIMEOUT_MS: '600000',
    });
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toEqual({ url: site.url('/hangs'), error: expect.stringContaining('within 300 ms') });
  });
});

describe.concurrent('analyze usage errors exit 2 with a message', () => {
  it.each([
    [[], 'Name at least one URL'],
    [['--concurrency', '17', 'https://example.com/'], '--concurrency must be a whole number from 1 to 16'],
    [['--concurrency', '0', 'https://example.com/'], '--concurrency must be a whole number from 1 to 16'],
    [['--min-score', '101', 'https://example.com/'], '--min-score must be a whole number from 0 to 100'],
    [['--min-score', 'high', 'https://example.com/'], '--min-score must be a whole number'],
    [['--timeout', '-5', 'https://example.com/'], '--timeout'],
    [['--fail-on', 'great', 'https://example.com/'], '--fail-on must be "bad" or "decent"'],
    [['--colour', 'https://example.com/'], "Unknown option '--colour'"],
    [['--file', '/nonexistent/urls.txt'], 'Cannot read --file /nonexistent/urls.txt'],
  ])('analyze %j', async (args, message) => {
    const run = await runInProcess(['analyze', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: pagegrade analyze');
    expect(run.stdout).toBe('');
  });

  it('a file with only comments and blank lines names no URL', async () => {
    const file = join(directory, 'empty.txt');
    await writeFile(file, '# nothing yet\n\n');
    const run = await runInProcess(['analyze', '--file', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Name at least one URL');
  });

  it('an invalid setting in the environment is a usage error too, not a failed gate', async () => {
    const run = await runInProcess(['analyze', good], { ...LOOPBACK, PAGEGRADE_THRESHOLDS: '{"nope": 1}' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PAGEGRADE_THRESHOLDS has an unknown key "nope"');
  });

  it('--help documents the options and the exit codes', async () => {
    const run = await runInProcess(['analyze', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: pagegrade analyze <url\.\.\.>/);
    for (const option of ['--json', '--file', '--concurrency', '--timeout', '--fail-on', '--min-score', '--compare', '--fail-on-regression', '--output', '--format', '--budget']) {
      expect(run.stdout).toContain(`  ${option}`);
    }
    expect(run.stdout).toMatch(/Exit codes[^\n]*\n {2}2 .+\n {2}3 .+\n {2}1 .+\n {2}0 .+/);
  });
});
