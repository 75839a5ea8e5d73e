// A report's past on the web through real routing: the score chart and "what changed" on the report
// page, each run's page, the runs list and the comparison of two runs, under the report page's access
// rules (owner, stranger, private, password), for a page the test edits between analyses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { BAD_PAGE } from '../support/api-fixtures.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectLabelledInputs, expectNoInlineCode, expectUniqueIds } from './web-client.ts';
import type { RunSummary } from '../../src/services/types.ts';

const SECRET = 'history is a password';
/** The good page without its title: the title check newly fails, and only a few others change. */
const UNTITLED_PAGE = goodPage().replace(/<title>[^<]*<\/title>/, '');

describe.each(testDialects())('report history on the web [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;
  let paths = 0;

  /** A report analysed once per page content, in order: one run each. */
  async function reportWithRuns(contents: string[], privacy: 0 | 1 | 2 = 0, password?: string): Promise<{ id: number; runs: RunSummary[] }> {
    paths += 1;
    const path = `/history-${paths}`;
    site.route(path, html(contents[0]));
    const { id } = await t.app.services.reports.create(owner.organization, { url: site.url(path), privacy, password });
    for (const content of contents.slice(1)) {
      site.route(path, html(content));
      await t.app.services.reports.update(owner.organization, id, { regenerate: true });
    }
    const runs = (await t.app.services.lists.runs(owner.organization, id, { page: 1, perPage: 100 })).items;
    return { id, runs };
  }

  let publicReport: { id: number; runs: RunSummary[] };
  let otherReport: { id: number; runs: RunSummary[] };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite();
    owner = await t.createAccount('owner');
    publicReport = await reportWithRuns([goodPage(), UNTITLED_PAGE, BAD_PAGE]);
    otherReport = await reportWithRuns([goodPage()]);
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  describe('the report page', () => {
    it('draws the score of every run as an accessible SVG chart, oldest first, each point linking to its run', async () => {
      const { statusCode, body } = await new WebClient(t.app).get(`/reports/${publicReport.id}`);
      expect(statusCode).toBe(200);
      const svg = /<svg class="score-chart-svg"[\s\S]*?<\/svg>/.exec(body)?.[0] ?? '';
      expect(svg).toContain('role="img"');
      expect(svg).toMatch(/aria-labelledby="score-chart-title-\d+ score-chart-desc-\d+"/);
      const oldestFirst = [...publicReport.runs].reverse();
      expect([...svg.matchAll(/<circle class="score-chart-point/g)]).toHaveLength(3);
      expect([...svg.matchAll(/href="\/reports\/\d+\/runs\/(\d+)"/g)].map((match) => Number(match[1]))).toEqual(oldestFirst.map((run) => run.id));
      // The text alternative lists every value.
      const desc = /<desc [^>]*>([^<]*)<\/desc>/.exec(svg)?.[1] ?? '';
      for (const run of oldestFirst) expect(desc).toContain(`Run ${run.number} (#${run.id}), `);
      for (const run of oldestFirst) expect(desc).toContain(`: ${run.score} (`);
      // Links inside an image are kept out of the tab order: the run list is the keyboard's way in.
      expect(svg).not.toMatch(/<a (?![^>]*tabindex="-1")/);
      expectNoInlineCode(body);
      expectUniqueIds(body);
      expectLabelledInputs(body);
    });

    it('says what changed since the previous run: score, verdict, newly failing and fixed checks, with a link to the comparison', async () => {
      const { body } = await new WebClient(t.app).get(`/reports/${publicReport.id}`);
      const [latest, previous] = publicReport.runs;
      const diff = await t.app.services.runs.diff(owner.organization, publicReport.id, {});
      const section = /<section class="run-changes[\s\S]*?<\/section>/.exec(body)?.[0] ?? '';
      expect(section).toContain('What changed since the previous run');
      expect(section).toContain(`score ${previous.score} → ${latest.score}`);
      expect(diff.score_delta).toBeLessThan(0);
      expect(section).toContain(`score down ${-diff.score_delta}`);
      expect(section).toContain(`▼ ${-diff.score_delta}`);
      expect(diff.newly_failed.length).toBeGreaterThan(0);
      const linked = [...section.matchAll(/href="#check-([a-z0-9_-]+)"/g)].map((match) => match[1]);
      expect(linked.sort()).toEqual([...diff.newly_failed, ...diff.fixed].map((check) => check.id).sort());
      // Most important first.
      const importances = [...section.matchAll(/<span class="importance importance--([a-z]+)">/g)].map((match) => match[1]);
      const rank = { high: 0, medium: 1, low: 2 } as Record<string, number>;
      const newlyFailing = importances.slice(0, diff.newly_failed.length);
      expect(newlyFailing).toEqual([...newlyFailing].sort((a, b) => rank[a] - rank[b]));
      for (const id of [...diff.newly_failed, ...diff.fixed].map((check) => check.id)) expect(body).toContain(`id="check-${id}"`);
      expect(section).toContain(`${diff.still_failing.length} check`);
      expect(section).toContain(`href="/reports/${publicReport.id}/compare?from=${previous.id}&amp;to=${latest.id}"`);
    });

    it('names a newly failing check by the catalogue\'s failure title', async () => {
      const id = (await reportWithRuns([goodPage(), UNTITLED_PAGE])).id;
      const { body } = await new WebClient(t.app).get(`/reports/${id}`);
      const section = /<section class="run-changes[\s\S]*?<\/section>/.exec(body)?.[0] ?? '';
      expect(section).toMatch(/<a href="#check-title">[^<]+<\/a>/);
      expect(section).toContain('Newly failing <span class="count">(');
    });

    it('offers a compare form (GET, two selects) listing the runs, newest first, latest against previous', async () => {
      const { body } = await new WebClient(t.app).get(`/reports/${publicReport.id}`);
      const form = /<form method="get" action="\/reports\/\d+\/compare"[\s\S]*?<\/form>/.exec(body)?.[0] ?? '';
      expect(form).toContain('<select id="compare-from" name="from"');
      const [latest, previous] = publicReport.runs;
      expect(form).toContain(`<option value="${previous.id}" selected>Run ${previous.number} (#${previous.id}) · ${previous.score}`);
      expect(/<select id="compare-to"[\s\S]*?<\/select>/.exec(form)?.[0]).toContain(`<option value="${latest.id}" selected>`);
    });

    it('shows neither chart nor changes while a report has one run', async () => {
      const { body } = await new WebClient(t.app).get(`/reports/${otherReport.id}`);
      expect(body).not.toContain('score-chart');
      expect(body).not.toContain('What changed since the previous run');
    });
  });

  describe('a run\'s page', () => {
    it('shows that run\'s results as the report page shows the latest, saying which run it is', async () => {
      const first = publicReport.runs[2];
      const run = await t.app.services.runs.show(owner.organization, publicReport.id, first.id);
      const { statusCode, body } = await new WebClient(t.app).get(`/reports/${publicReport.id}/runs/${first.id}`);
      expect(statusCode).toBe(200);
      expect(body).toContain(`Run ${first.number} (#${first.id}) of this report, from <time`);
      expect(body).toContain('(created)');
      expect(body).toContain(`<a href="/reports/${publicReport.id}">See the latest run</a>`);
      expect(body).toContain(`aria-label="Score ${run.score} out of 100"`);
      expect(body).toMatch(new RegExp(`<title>Run ${first.number} \\(#${first.id}\\) of the SEO report for [^<]+ — ${run.score}/100`));
      expect(body.match(/class="check check--failed"/g) ?? []).toHaveLength(Object.values(run.results).filter((result) => result.passed === false).length);
      expect(body).not.toContain('http-equiv="refresh"');
      expectNoInlineCode(body);
    });

    it('says the latest run is the latest', async () => {
      const { body } = await new WebClient(t.app).get(`/reports/${publicReport.id}/runs/${publicReport.runs[0].id}`);
      expect(body).toContain('It is the latest run.');
    });

    it('answers a run of another report, a missing run and a malformed id with the not-found page', async () => {
      const notFound = await new WebClient(t.app).get('/reports/987654321');
      for (const path of [
        `/reports/${publicReport.id}/runs/${otherReport.runs[0].id}`,
        `/reports/${otherReport.id}/runs/${publicReport.runs[0].id}`,
        `/reports/${publicReport.id}/runs/987654321`,
        `/reports/${publicReport.id}/runs/abc`,
      ]) {
        const response = await new WebClient(t.app).get(path);
        expect(response.statusCode, path).toBe(404);
        expect(response.body, path).toBe(notFound.body);
      }
    });
  });

  describe('the runs list and the comparison', () => {
    it('lists every run with a link to its page', async () => {
      const { statusCode, body } = await new WebClient(t.app).get(`/reports/${publicReport.id}/runs`);
      expect(statusCode).toBe(200);
      for (const run of publicReport.runs) expect(body).toContain(`<a href="/reports/${publicReport.id}/runs/${run.id}">Run ${run.number} (#${run.id})</a>`);
      expectUniqueIds(body);
      expectLabelledInputs(body);
    });

    it('compares two runs: newly failing, fixed and still failing, each with its value in both runs', async () => {
      const [latest, , first] = publicReport.runs;
      const { statusCode, body } = await new WebClient(t.app).get(`/reports/${publicReport.id}/compare?from=${first.id}&to=${latest.id}`);
      expect(statusCode).toBe(200);
      const diff = await t.app.services.runs.diff(owner.organization, publicReport.id, { from: first.id, to: latest.id });
      expect(body).toContain(`Score ${first.score} → ${latest.score}`);
      for (const check of diff.newly_failed) expect(body).toContain(`id="compare-${check.id}"`);
      for (const id of diff.still_failing) expect(body).toContain(`id="compare-${id}"`);
      expect(body).toContain(`>Still failing <span class="count">(${diff.still_failing.length})</span>`);
      expect(body).toContain(`<th scope="col">Run ${first.number} (#${first.id})</th><th scope="col">Run ${latest.number} (#${latest.id})</th>`);
      expectNoInlineCode(body);
      expectUniqueIds(body);
    });

    it('compares the latest run with the previous one by default, and either order as older → newer', async () => {
      const [latest, previous] = publicReport.runs;
      const byDefault = await new WebClient(t.app).get(`/reports/${publicReport.id}/compare`);
      expect(byDefault.body).toContain(`<title>Run ${previous.number} (#${previous.id}) and Run ${latest.number} (#${latest.id}) of the SEO report`);
      const reversed = await new WebClient(t.app).get(`/reports/${publicReport.id}/compare?from=${latest.id}&to=${previous.id}`);
      expect(reversed.statusCode).toBe(200);
      expect(reversed.body).toContain(`<title>Run ${previous.number} (#${previous.id}) and Run ${latest.number} (#${latest.id}) of the SEO report`);
    });

    it('asks again, in place, for two different runs', async () => {
      const run = publicReport.runs[0].id;
      const { statusCode, body } = await new WebClient(t.app).get(`/reports/${publicReport.id}/compare?from=${run}&to=${run}`);
      expect(statusCode).toBe(422);
      expect(body).toContain('<p class="form-error" id="compare-error" role="alert">Pick two different runs to compare.</p>');
      expect(body).toContain('aria-describedby="compare-error"');
    });

    it('refuses a run of another report with the not-found page, and a malformed one as invalid', async () => {
      const foreign = await new WebClient(t.app).get(`/reports/${publicReport.id}/compare?from=${otherReport.runs[0].id}&to=${publicReport.runs[0].id}`);
      expect(foreign.statusCode).toBe(404);
      const malformed = await new WebClient(t.app).get(`/reports/${publicReport.id}/compare?from=abc`);
      expect(malformed.statusCode).toBe(422);
    });

    it('says there is nothing to compare for a report with one run', async () => {
      const { statusCode, body } = await new WebClient(t.app).get(`/reports/${otherReport.id}/compare`);
      expect(statusCode).toBe(200);
      expect(body).toContain('nothing to compare yet');
    });
  });

  describe('access', () => {
    const pathsOf = (report: { id: number; runs: RunSummary[] }) => [
      `/reports/${report.id}`,
      `/reports/${report.id}/runs`,
      `/reports/${report.id}/runs/${report.runs[1].id}`,
      `/reports/${report.id}/compare`,
      `/reports/${report.id}/compare?from=${report.runs[1].id}&to=${report.runs[0].id}`,
    ];

    it('keeps a private report\'s runs to its owner: a stranger, signed in or not, gets the not-found page', async () => {
      const report = await reportWithRuns([goodPage(), BAD_PAGE], 1);
      const ownerBrowser = new WebClient(t.app);
      await ownerBrowser.signIn(owner.key);
      const signedInStranger = new WebClient(t.app);
      await signedInStranger.signIn((await t.createAccount('stranger')).key);
      const notFound = (await new WebClient(t.app).get('/reports/987654321')).body;
      for (const path of pathsOf(report)) {
        expect((await ownerBrowser.get(path)).statusCode, path).toBe(200);
        for (const stranger of [new WebClient(t.app), signedInStranger]) {
          const response = await stranger.get(path);
          expect(response.statusCode, path).toBe(404);
          expect(response.body, path).toBe(notFound);
        }
      }
    });

    it('asks for a password report\'s password on every run page, and shows them once it is unlocked', async () => {
      const report = await reportWithRuns([goodPage(), BAD_PAGE], 2, SECRET);
      const browser = new WebClient(t.app);
      for (const path of pathsOf(report)) {
        const locked = await browser.get(path);
        expect(locked.statusCode, path).toBe(200);
        expect(locked.body, path).toContain('<title>Password-protected report · pagegrade</title>');
        expect(locked.body, path).not.toContain('score-chart');
      }
      const unlocked = await browser.post(`/reports/${report.id}/unlock`, { password: SECRET });
      expect(unlocked.statusCode).toBe(303);
      for (const path of pathsOf(report)) {
        const response = await browser.get(path);
        expect(response.statusCode, path).toBe(200);
        expect(response.body, path).not.toContain('Password-protected report');
      }
      expect((await browser.get(`/reports/${report.id}`)).body).toContain('score-chart');
    });

    it('shows a public report\'s runs to anyone, without the owner\'s bar', async () => {
      for (const path of pathsOf(publicReport)) {
        const response = await new WebClient(t.app).get(path);
        expect(response.statusCode, path).toBe(200);
        expect(response.body, path).not.toContain('Manage this report');
      }
    });
  });
});
