// `pagegrade analyze --render`, in-process through runCli: the comparison under the text report and
// "rendered" in --json; without Chromium, a usage error that says where it looked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK } from '../cli/run-binary.ts';
import { runInProcess } from '../cli/run-cli.ts';
import { chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { startSite, type Site } from '../support/site-server.ts';
import { JS_BUILT_ROUTES } from './pages.ts';

const CLI_TEST_MS = 60_000;

let site: Site;
beforeAll(async () => {
  site = await startSite(JS_BUILT_ROUTES);
});
afterAll(() => site.close());

describe('analyze --render without Chromium', () => {
  it('is a usage error naming the path it looked at', async () => {
    const run = await runInProcess(['analyze', '--render', site.url('/spa')], { ...LOOPBACK, PAGEGRADE_CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--render needs Chromium, and there is none at /nonexistent/chromium');
  });
});

whenChromiumMissing('analyze --render');

describe.runIf(chromiumInstalled)('analyze --render', () => {
  it('prints what JavaScript changed under the report', { timeout: CLI_TEST_MS }, async () => {
    const run = await runInProcess(['analyze', '--render', site.url('/spa')], LOOPBACK);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Raw HTML against the page after JavaScript (7 of 8 changed)');
    // The raw column is as wide as its widest value, so the arrows line up.
    expect(run.stdout).toMatch(/≠ Title {12}Loading… {8}→ {2}Mountain coffee, roasted every morning\n/);
    expect(run.stdout).toMatch(/≠ Links {12}0 \(0 internal\) {2}→ {2}12 \(12 internal\)\n/);
    expect(run.stdout).toMatch(/= Robots meta {6}\(none\)/);
    expect(run.stdout).toContain(site.url('/coffee/0'));
  });

  it('adds "rendered" to --json, and the check judges it', { timeout: CLI_TEST_MS }, async () => {
    const run = await runInProcess(['analyze', '--render', '--json', site.url('/spa')], LOOPBACK);
    const json = JSON.parse(run.stdout);
    expect(json.rendered).toMatchObject({ title: { raw: 'Loading…', rendered: 'Mountain coffee, roasted every morning' }, json_ld_types: { raw: [], rendered: ['Product'] } });
    expect(json.results.javascript_dependency.passed).toBe(false);
    // Without --render there is no "rendered", and the check does not apply.
    const plain = JSON.parse((await runInProcess(['analyze', '--json', site.url('/spa')], LOOPBACK)).stdout);
    expect(plain).not.toHaveProperty('rendered');
    expect(plain.results.javascript_dependency.passed).toBeNull();
  });
});

describe('crawl --render', () => {
  it('without Chromium is a usage error naming the path it looked at', async () => {
    const run = await runInProcess(['crawl', '--render', '--no-sitemap', site.url('/spa')], { ...LOOPBACK, PAGEGRADE_CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--render needs Chromium, and there is none at /nonexistent/chromium');
  });

  it.runIf(chromiumInstalled)('judges the crawled pages with what JavaScript changes', { timeout: 2 * CLI_TEST_MS }, async () => {
    const crawlOf = async (extra: string[]) => {
      const run = await runInProcess(['crawl', '--json', '--no-sitemap', '--max-depth', '0', ...extra, site.url('/spa')], LOOPBACK);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout);
    };
    // Two runs at once, each with its own database; the rendered one also starts a browser.
    const [plain, rendered] = await Promise.all([crawlOf([]), crawlOf(['--render'])]);
    expect(rendered.crawl.render).toBe(1);
    expect(plain.crawl.render).toBe(0);
    // The shell's failed javascript_dependency check costs the rendered crawl's page points.
    expect(rendered.pages[0].score).toBeLessThan(plain.pages[0].score);
  });
});
