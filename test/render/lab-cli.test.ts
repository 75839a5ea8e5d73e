// `pagegrade analyze --lab` in Debian's Chromium, in-process through runCli: each page gets a lab audit
// under --lab-profile, one audit at a time whatever --concurrency (the renderer's gate, one renderer
// for the whole command), `lab` in --json, the Lab part and the failed accessibility rule in the text
// report, and a lab budget judged on what was measured.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK } from '../cli/run-binary.ts';
import { runInProcess } from '../cli/run-cli.ts';
import { chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { goodPage, html, startSite, type Handler, type Site } from '../support/site-server.ts';

const CLI_TEST_MS = 120_000;
/** docs/lab.md: an audit observes its page until 1,000 ms pass with nothing in flight after the load. */
const QUIET_MS = 1_000;
const PATHS = ['/a', '/b', '/c'];
/** A good page but for one image without alternative text (axe-core's image-alt fails). */
const PAGE = goodPage().replace('</body>', '<img src="/hero.svg" width="40" height="40"></body>');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#c33"/></svg>';

/** When the browser (its user agent is Lighthouse's device string, not pagegrade's own) asked for each page. */
const browserLoads: { path: string; at: number }[] = [];
const fromBrowser = (request: IncomingMessage) => String(request.headers['user-agent']).includes('Chrome/');
const recorded = (path: string, handler: Handler): Handler => (request, response) => {
  if (fromBrowser(request)) browserLoads.push({ path, at: performance.now() });
  handler(request, response);
};

let site: Site;
beforeAll(async () => {
  site = await startSite({
    ...Object.fromEntries(PATHS.map((path) => [path, recorded(path, html(PAGE))])),
    '/hero.svg': (_request, response) => {
      response.writeHead(200, { 'content-type': 'image/svg+xml' });
      response.end(SVG);
    },
  });
});
afterAll(() => site?.close());

whenChromiumMissing('analyze --lab');

describe.runIf(chromiumInstalled)('analyze --lab', () => {
  it('audits each page under --lab-profile, one at a time though three are analysed at once, and --json carries `lab`', { timeout: CLI_TEST_MS }, async () => {
    browserLoads.length = 0;
    const urls = PATHS.map((path) => site.url(path));
    const run = await runInProcess(['analyze', '--lab', '--lab-profile', 'desktop', '--concurrency', '3', '--json', ...urls], LOOPBACK);
    expect(run.code, run.stderr).toBe(0);
    const reports = JSON.parse(run.stdout) as { url: string; lab: { profile: string; metrics: Record<string, number | null>; accessibility: { violations: number } }; results: Record<string, { passed: boolean | null; category: string }> }[];
    expect(reports.map((report) => report.url)).toEqual(urls);
    for (const report of reports) {
      expect(report.lab.profile).toBe('desktop');
      expect(report.lab.metrics.fcp_ms).toEqual(expect.any(Number));
      expect(report.lab.accessibility.violations).toBeGreaterThanOrEqual(1);
      expect(report.results.a11y_image_alt).toMatchObject({ passed: false, category: 'accessibility' });
      expect(report.results.first_contentful_paint.passed).not.toBeNull();
    }
    // Each audit observes its page until a quiet window of QUIET_MS after the load: audits side by side
    // would load the three pages within moments of each other.
    const loads = PATHS.map((path) => browserLoads.find((load) => load.path === path)!.at).sort((a, b) => a - b);
    expect(loads).toHaveLength(3);
    for (let index = 1; index < loads.length; index += 1) expect(loads[index] - loads[index - 1]).toBeGreaterThanOrEqual(QUIET_MS);
  });

  it('shows the Lab part and the failed accessibility rule in the text report, and judges a lab budget', { timeout: CLI_TEST_MS }, async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pagegrade-lab-cli-'));
    try {
      const budget = join(directory, 'budget.json');
      await writeFile(budget, JSON.stringify({ lab: { fcp_ms: 0, cls: 1 } }));
      const url = site.url('/a');
      const run = await runInProcess(['analyze', '--lab', url, '--budget', budget], LOOPBACK);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toContain('\nLab audit (mobile profile)\n');
      expect(run.stdout).toMatch(/\n {2}First Contentful Paint \(FCP\) +[\d,]+ ms +(good|needs improvement|poor)\n/);
      expect(run.stdout).toMatch(/\n {2}Accessibility +\d+\/100 · [1-9]\d* of \d+ rules? checked violated\n/);
      expect(run.stdout).toMatch(/\nAccessibility\n {2}✗ Images must have alternative text \[high\]\n/);
      expect(run.stderr).toMatch(new RegExp(`pagegrade: gate failed: --budget lab\\.fcp_ms 0: ${url.replaceAll('.', '\\.')} measured \\d+\\.\\n`));
      expect(run.stderr).not.toContain('lab.cls');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
