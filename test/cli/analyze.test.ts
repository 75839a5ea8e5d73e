// `pagegrade analyze <url>` for one URL, in-process through runCli: the text report, --json, colours,
// and pages that try to inject terminal escapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { allChecks } from '../../src/checks/index.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';
import { ESCAPE_TITLES, escapingPage } from './pages.ts';

const ESC = '\u001b';
/** Fails on a loopback site: it is plain http. */
const HTTPS_CHECK = 'https_encryption';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let site: Site;

beforeAll(async () => {
  site = await startSite({
    '/': html(goodPage()),
    '/escapes': escapingPage,
    '/old': (_request, response) => {
      response.writeHead(301, { location: '/' });
      response.end();
    },
  });
});

afterAll(() => site.close());

describe('analyze, text report', () => {
  it('prints score and verdict, failed checks by category with items and fixes, then the rest', async () => {
    const run = await runInProcess(['analyze', site.url('/')], LOOPBACK);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe(site.url('/'));
    expect(lines[1]).toMatch(/^Score \d{1,3}\/100 (good|decent|bad)$/);
    expect(lines[2]).toMatch(/^HTTP 200 · [\d.]+ KiB · \d+ ms · issues: \d+ high, \d+ medium, \d+ low$/);

    // Over plain http on loopback, "served over https" fails: a security failure with its item and fix.
    const failedAt = lines.findIndex((line) => line.startsWith('Failed checks ('));
    const securityAt = lines.indexOf('Security');
    const passedAt = lines.findIndex((line) => line.startsWith('Passed ('));
    const notApplicableAt = lines.findIndex((line) => line.startsWith('Not applicable ('));
    expect(failedAt).toBeGreaterThan(2);
    expect(securityAt).toBeGreaterThan(failedAt);
    expect(passedAt).toBeGreaterThan(securityAt);
    expect(notApplicableAt).toBeGreaterThan(passedAt);
    const https = allChecks.find((check) => check.id === HTTPS_CHECK);
    expect(https).toBeDefined();
    const failure = lines.indexOf(`  ✗ ${https?.failureTitle} [high]`);
    expect(failure).toBeGreaterThan(securityAt);
    expect(lines.slice(failure, failure + 5)).toContain(`        - ${site.url('/')}`);
    expect(lines.slice(failure, failure + 5)).toContain(`      Fix: ${https?.howToFix}`);

    const title = allChecks.find((check) => check.id === 'title');
    expect(lines.slice(passedAt).join('\n')).toContain(`✓ ${title?.title}`);
    // Checks that need https do not apply here; each is listed with its reason.
    expect(lines.slice(notApplicableAt).some((line) => /^ {2}- .+: .+/.test(line))).toBe(true);
    expect(run.stdout).not.toContain(ESC);
  });

  it('shows where a redirect led', async () => {
    const run = await runInProcess(['analyze', site.url('/old')], LOOPBACK);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([site.url('/old'), `  → ${site.url('/')}`]);
  });

  it('colours only when FORCE_COLOR asks (stdout is a pipe), and NO_COLOR alone keeps it plain', async () => {
    const forced = await runInProcess(['analyze', site.url('/')], { ...LOOPBACK, FORCE_COLOR: '1' });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/Score \u001b\[3[123]m\d+\/100 (good|decent|bad)\u001b\[39m/);
    const noColour = await runInProcess(['analyze', site.url('/')], { ...LOOPBACK, NO_COLOR: '1' });
    expect(noColour.stdout).not.toContain(ESC);
    const forcedOff = await runInProcess(['analyze', site.url('/')], { ...LOOPBACK, FORCE_COLOR: '0' });
    expect(forcedOff.stdout).not.toContain(ESC);
  });

  it('strips control characters from page-derived text, so a page cannot drive the terminal', async () => {
    const run = await runInProcess(['analyze', site.url('/escapes')], LOOPBACK);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).not.toContain('\u0007');
    // What is left of the titles is still shown, as harmless text.
    expect(run.stdout).toContain('        - Evil [31mRED[0m one');
    expect(run.stdout).toContain('        - Second ]0;pwned title');

    const coloured = await runInProcess(['analyze', site.url('/escapes')], { ...LOOPBACK, FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain(ESC); // pagegrade's own colours
    expect(coloured.stdout).toContain('        - Evil [31mRED[0m one');
    expect(coloured.stdout).not.toContain(ESCAPE_TITLES[0]);
    expect(coloured.stdout).not.toContain(`${ESC}]0;`);
  });
});

describe('analyze --json', () => {
  it('prints the API report fields, minus the stored-report ones', async () => {
    const run = await runInProcess(['analyze', site.url('/'), '--json'], LOOPBACK);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report)).toEqual(['url', 'result', 'score', 'issues', 'page', 'results', 'structured_data', 'generated_at']);
    expect(report.url).toBe(site.url('/'));
    expect(['good', 'decent', 'bad']).toContain(report.result);
    expect(Number.isInteger(report.score)).toBe(true);
    expect(report.generated_at).toMatch(ISO_TIME);
    expect(report.page).toMatchObject({ final_url: site.url('/'), status_code: 200, redirects: [], http_version: '1.1' });
    expect(Object.keys(report.results)).toEqual(allChecks.map((check) => check.id));
    expect(report.results[HTTPS_CHECK]).toMatchObject({ passed: false, importance: 'high', category: 'security', errors: { insecure_url: [site.url('/')] } });
    const failed = Object.values(report.results as Record<string, { passed: boolean | null; importance: string }>).filter(
      (result) => result.passed === false,
    );
    expect(report.issues).toEqual({
      high: failed.filter((result) => result.importance === 'high').length,
      medium: failed.filter((result) => result.importance === 'medium').length,
      low: failed.filter((result) => result.importance === 'low').length,
    });
  });

  it('normalises the URL the way the API does', async () => {
    const run = await runInProcess(['analyze', `${site.origin.replace('http://', 'HTTP://')}/#top`, '--json'], LOOPBACK);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).url).toBe(site.url('/'));
  });

  it('keeps page text intact in JSON, escaped, so no raw control character reaches the output', async () => {
    const run = await runInProcess(['analyze', site.url('/escapes'), '--json'], LOOPBACK);
    expect(run.stdout).not.toContain(ESC);
    expect(JSON.parse(run.stdout).results.title.errors.multiple).toEqual(ESCAPE_TITLES);
  });

  it('prints {url, error} for a URL that cannot be analysed, and exits 3', async () => {
    const run = await runInProcess(['analyze', 'ftp://example.com/file', '--json'], LOOPBACK);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toEqual({ url: 'ftp://example.com/file', error: expect.stringContaining('http or https') });
    expect(run.stderr).toContain('1 of 1 URLs could not be analysed');
  });

  it('refuses loopback addresses unless PAGEGRADE_ALLOW_PRIVATE_URLS=1', async () => {
    const run = await runInProcess(['analyze', site.url('/'), '--json']);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toEqual({ url: site.url('/'), error: expect.any(String) });
  });
});
