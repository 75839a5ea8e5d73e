// A run's name and its address agree: the pages call a run by its number among the report's runs and
// by the id its address (and the API) uses, "Run 2 (#3)" for /reports/1/runs/3, wherever they name or
// link one (the runs list, the report's history, the chart, the compare form and page, a run's page),
// and every address a page gives (old links too) opens the run it names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/services/types.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient } from './web-client.ts';

describe.each(testDialects())('run labels and addresses [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let reportId: number;
  /** Newest first. */
  let runs: RunSummary[];

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/a': html(goodPage('Page A')), '/b': html(goodPage('Page B')) });
    const owner = await t.createAccount('owner');
    const { reports } = t.app.services;
    // Two reports analysed in turn: their runs' ids interleave, so a run's id is not its number.
    reportId = (await reports.create(owner.organization, { url: site.url('/a'), privacy: 0 })).id;
    const other = (await reports.create(owner.organization, { url: site.url('/b'), privacy: 0 })).id;
    for (let round = 0; round < 2; round += 1) {
      await reports.update(owner.organization, other, { regenerate: true });
      await reports.update(owner.organization, reportId, { regenerate: true });
    }
    runs = (await t.app.services.lists.runs(owner.organization, reportId, { page: 1, perPage: 10 })).items;
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('has runs whose ids are not their numbers (what the rest relies on)', () => {
    expect(runs.map((run) => run.number)).toEqual([3, 2, 1]);
    expect(runs.filter((run) => run.id !== run.number).length).toBeGreaterThanOrEqual(2);
  });

  it('names each linked run by its number and the id in its link, on every page that links runs', async () => {
    const browser = new WebClient(t.app);
    for (const path of [`/reports/${reportId}`, `/reports/${reportId}/runs`, `/reports/${reportId}/compare`]) {
      const { body } = await browser.get(path);
      const links = [...body.matchAll(/<a href="\/reports\/(\d+)\/runs\/(\d+)"[^>]*>([^<]*)<\/a>/g)];
      const labelled = links.filter((link) => link[3].trim() !== '');
      expect(labelled.length, path).toBeGreaterThan(0);
      for (const [, report, runId, label] of labelled) {
        const run = runs.find((candidate) => candidate.id === Number(runId));
        expect(Number(report), path).toBe(reportId);
        expect(label, path).toBe(`Run ${run!.number} (#${run!.id})`);
      }
      // The compare form's choices say the same, their values being the same ids.
      for (const [, value, label] of body.matchAll(/<option value="(\d+)"(?: selected)?>(Run [^<]*)<\/option>/g)) {
        const run = runs.find((candidate) => candidate.id === Number(value));
        expect(label, path).toMatch(new RegExp(`^Run ${run!.number} \\(#${run!.id}\\) · `));
      }
    }
  });

  it('opens the run a label names at the address given, saying so, and the same run at the old address', async () => {
    const browser = new WebClient(t.app);
    for (const run of runs) {
      const response = await browser.get(`/reports/${reportId}/runs/${run.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`Run ${run.number} (#${run.id}) of this report, from <time`);
      expect(response.body).toContain(`<title>Run ${run.number} (#${run.id}) of the SEO report`);
    }
  });

  it('names both runs of a comparison in its heading, columns and title', async () => {
    const [latest, , first] = runs;
    const { body } = await new WebClient(t.app).get(`/reports/${reportId}/compare?from=${first.id}&to=${latest.id}`);
    expect(body).toContain(`<a href="/reports/${reportId}/runs/${first.id}">Run 1 (#${first.id})</a> → <a href="/reports/${reportId}/runs/${latest.id}">Run 3 (#${latest.id})</a>`);
    expect(body).toContain(`<title>Run 1 (#${first.id}) and Run 3 (#${latest.id}) of the SEO report`);
  });

  it('numbers the chart\'s axis by run number, and names each point by both', async () => {
    const { body } = await new WebClient(t.app).get(`/reports/${reportId}`);
    const svg = /<svg class="score-chart-svg"[\s\S]*?<\/svg>/.exec(body)?.[0] ?? '';
    const ticks = [...svg.matchAll(/<text class="score-chart-tick" x="[\d.]+" y="[\d.]+" text-anchor="middle">([^<]+)<\/text>/g)].map((match) => match[1]);
    expect(ticks).toEqual(['1', '2', '3']);
    for (const run of runs) expect(svg).toContain(`<title>Run ${run.number} (#${run.id}), `);
  });
});
