// A robots.txt built to be costly to match (docs/checks.md, "robots.txt limits"): 500 KiB of rules
// with 120 wildcards each, against a page URL with an 800-character query. The report is made in
// milliseconds of matching, robots passes (no rule matches: none has the URL's missing "z"), and
// two such reports in the background leave the analysis threads free for another account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { goodPage, html, startSite, text, type Site } from '../support/site-server.ts';
import { body, call } from '../support/api-fixtures.ts';
import { waitFor } from '../queue/engines.ts';

const REPORT_WITHIN_MS = 10_000;

/**
 * As many such rules as 500 KiB holds, each different (a repeated rule is compiled once) and whole (a
 * line cut at the limit would lose its "z" and match).
 */
function hostileRobotsTxt(): string {
  const lines = ['User-agent: *'];
  for (let i = 0, bytes = lines[0].length + 1; ; i++) {
    const line = `Disallow: /${'*a'.repeat(119)}*${i.toString(36)}z`;
    bytes += line.length + 1;
    if (bytes > 500 * 1024) return `${lines.join('\n')}\n`;
    lines.push(line);
  }
}

/** A site whose robots.txt is hostile, and the URL of its page with a long query. */
async function hostileSite(): Promise<{ site: Site; pageUrl: string }> {
  const site = await startSite({ '/robots.txt': text(hostileRobotsTxt()), '/page': html(goodPage()) });
  return { site, pageUrl: site.url(`/page?q=${'a'.repeat(800)}`) };
}

describe('a costly robots.txt', () => {
  let t: TestApp;
  let ordinary: Site;
  const sites: Site[] = [];

  beforeAll(async () => {
    t = await startTestApp('sqlite', { analysisThreads: 2, workers: 2 });
    ordinary = await startSite({ '/': html(goodPage()) });
    sites.push(ordinary);
    // Both analysis threads start (seconds of CPU on a busy machine) before anything is timed.
    const warm = await t.createAccount('warm');
    const warmed = await Promise.all([1, 2].map((n) => call(t, warm, 'POST', '/api/v1/reports', { url: ordinary.url(`/?warm=${n}`) })));
    for (const response of warmed) expect(response.statusCode, response.body).toBe(201);
  });
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.close()));
    await t?.close();
  });

  it('is decided within the time of a report, and robots does not fail', async () => {
    const { site, pageUrl } = await hostileSite();
    sites.push(site);
    const account = await t.createAccount();
    const started = performance.now();
    const response = await call(t, account, 'POST', '/api/v1/reports', { url: pageUrl });
    expect(performance.now() - started).toBeLessThan(REPORT_WITHIN_MS);
    expect(response.statusCode, response.body).toBe(201);
    const { results } = body(response).data;
    expect(site.requests).toContain('/robots.txt');
    expect(results.robots.passed, JSON.stringify(results.robots.value?.rule)).not.toBe(false);
    expect(results.robots).toMatchObject({ passed: true, value: { group: '*', rule: null } });
    expect(results.ai_crawlers.passed).toBe(true);
  });

  it("does not hold another account's report while two such reports run in the background", async () => {
    const { site, pageUrl } = await hostileSite();
    sites.push(site);
    const hostile = await t.createAccount('hostile');
    const other = await t.createAccount('other');
    for (let i = 0; i < 2; i++) {
      const queued = await call(t, hostile, 'POST', '/api/v1/reports', { url: pageUrl, async: 1 });
      expect(queued.statusCode, queued.body).toBe(202);
    }
    // Both have fetched their page: what remains of them is the analysis, robots.txt matching included.
    await waitFor(() => site.requests.filter((path) => path === '/page').length >= 2, 'both background reports to fetch the page');

    const started = performance.now();
    const response = await call(t, other, 'POST', '/api/v1/reports', { url: ordinary.url('/') });
    expect(performance.now() - started).toBeLessThan(REPORT_WITHIN_MS);
    expect(response.statusCode, response.body).toBe(201);
  });
});
