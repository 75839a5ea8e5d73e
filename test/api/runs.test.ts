// Every analysis kept (docs/api.md, "Runs of a report"): each successful analysis is a run of its report, listed newest
// first and shown with its results; the diff says what changed between two runs of a page the test
// edits between analyses; PAGEGRADE_RUNS_KEPT bounds how many are kept; runs are the owner's only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { editablePage, goodPage, startSite, type Site } from '../support/site-server.ts';
import { BAD_PAGE, ISO_TIME, body, call, createReport, expectInvalid, expectNotFound, showReport, type Account, type Body } from '../support/api-fixtures.ts';

const RUNS_KEPT = 3;

describe.each(testDialects())('report runs and diffs [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  const page = (content: string) => editablePage(site, content);

  async function get(account: Account, path: string): Promise<Body> {
    const response = await call(t, account, 'GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return body(response);
  }

  async function analyzeAgain(account: Account, id: number): Promise<Body> {
    const response = await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1 });
    expect(response.statusCode, response.body).toBe(200);
    return body(response).data;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { runsKept: RUNS_KEPT });
    site = await startSite();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('lists each analysis as a run, newest first, and shows any run with its page and results', async () => {
    const account = await t.createAccount();
    const target = page(goodPage());
    const report: Body = await createReport(t, account, target.url);
    target.set(BAD_PAGE);
    const again = await analyzeAgain(account, report.id);
    expect(again.runs_count).toBe(2);

    const list = await get(account, `/api/v1/reports/${report.id}/runs`);
    expect(list.meta.total).toBe(2);
    expect(list.data.map((run: Body) => [run.number, run.trigger, run.result])).toEqual([
      [2, 'regenerate', 'bad'],
      [1, 'create', 'good'],
    ]);
    const [second, first] = list.data;
    expect(Object.keys(first).sort()).toEqual(['generated_at', 'id', 'issues', 'number', 'result', 'score', 'trigger']);
    expect(first).toMatchObject({ score: report.score, issues: report.issues, generated_at: report.generated_at });
    expect(second.generated_at).toMatch(ISO_TIME);
    expect(second.id).not.toBe(first.id);

    const shownFirst = (await get(account, `/api/v1/reports/${report.id}/runs/${first.id}`)).data;
    expect(shownFirst).toMatchObject({ id: first.id, number: 1, page: report.page, results: report.results });
    const shownSecond = (await get(account, `/api/v1/reports/${report.id}/runs/${second.id}`)).data;
    expect(shownSecond.results).toEqual((await showReport(t, account, report.id)).results);
  });

  it('diffs two runs: checks newly failing and fixed with their values, and those failing in both', async () => {
    const account = await t.createAccount();
    const target = page(goodPage());
    const report: Body = await createReport(t, account, target.url);
    target.set(BAD_PAGE);
    await analyzeAgain(account, report.id);
    target.set(goodPage());
    await analyzeAgain(account, report.id);
    const [third, second, first] = (await get(account, `/api/v1/reports/${report.id}/runs`)).data;
    const results = async (run: Body) => (await get(account, `/api/v1/reports/${report.id}/runs/${run.id}`)).data.results;
    const [before, after] = [await results(first), await results(second)];

    // Default: the latest run against the one before it.
    const latest = (await get(account, `/api/v1/reports/${report.id}/diff`)).data;
    expect(latest.from.id).toBe(second.id);
    expect(latest.to.id).toBe(third.id);

    const diff = (await get(account, `/api/v1/reports/${report.id}/diff?from=${first.id}&to=${second.id}`)).data;
    expect(diff).toMatchObject({
      report_id: report.id,
      from: { id: first.id, number: 1, score: first.score, result: 'good', generated_at: first.generated_at },
      to: { id: second.id, number: 2, score: second.score, result: 'bad', generated_at: second.generated_at },
      score_delta: second.score - first.score,
      result_changed: true,
    });
    expect(diff.score_delta).toBeLessThan(0);
    // The bad page has no title, so the title check went from passing to failing, with both values.
    const title = diff.newly_failed.find((check: Body) => check.id === 'title');
    expect(title).toEqual({ id: 'title', importance: 'high', from: before.title.value, to: after.title.value });
    for (const check of diff.newly_failed) {
      expect(before[check.id]?.passed, check.id).not.toBe(false);
      expect(after[check.id].passed, check.id).toBe(false);
    }
    for (const id of diff.still_failing) expect([before[id].passed, after[id].passed], id).toEqual([false, false]);
    const failingAfter = Object.keys(after).filter((id) => after[id].passed === false).sort();
    expect([...diff.newly_failed.map((check: Body) => check.id), ...diff.still_failing].sort()).toEqual(failingAfter);
    // Going back to the good page fixes what broke.
    const back = (await get(account, `/api/v1/reports/${report.id}/diff?from=${second.id}`)).data;
    expect(back.fixed.map((check: Body) => check.id).sort()).toEqual(diff.newly_failed.map((check: Body) => check.id).sort());
    expect(back.newly_failed).toEqual([]);
  });

  it('refuses a diff with nothing older to compare (422 on from), and a run that is not the report\'s (404)', async () => {
    const account = await t.createAccount();
    const target = page(goodPage());
    const report: Body = await createReport(t, account, target.url);
    const [only] = (await get(account, `/api/v1/reports/${report.id}/runs`)).data;
    expect(expectInvalid(await call(t, account, 'GET', `/api/v1/reports/${report.id}/diff`), 'from').join(' ')).toMatch(/first kept run/);
    await analyzeAgain(account, report.id);
    const [newest] = (await get(account, `/api/v1/reports/${report.id}/runs`)).data;
    expect(expectInvalid(await call(t, account, 'GET', `/api/v1/reports/${report.id}/diff?from=${newest.id}&to=${only.id}`), 'from').join(' ')).toMatch(/older/);
    expectInvalid(await call(t, account, 'GET', `/api/v1/reports/${report.id}/diff?from=${only.id}&to=${only.id}`), 'from');
    expectInvalid(await call(t, account, 'GET', `/api/v1/reports/${report.id}/diff?from=abc`), 'from');

    const other: Body = await createReport(t, account, page(goodPage()).url);
    const [otherRun] = (await get(account, `/api/v1/reports/${other.id}/runs`)).data;
    expectNotFound(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs/${otherRun.id}`));
    expectNotFound(await call(t, account, 'GET', `/api/v1/reports/${report.id}/diff?from=${otherRun.id}`));
    expectNotFound(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs/abc`));
  });

  it('keeps the newest PAGEGRADE_RUNS_KEPT runs; numbers go on and are never reused', async () => {
    const account = await t.createAccount();
    const target = page(goodPage());
    const report: Body = await createReport(t, account, target.url);
    const [first] = (await get(account, `/api/v1/reports/${report.id}/runs`)).data;
    for (let run = 2; run <= RUNS_KEPT + 2; run += 1) await analyzeAgain(account, report.id);
    const list = await get(account, `/api/v1/reports/${report.id}/runs?per_page=10`);
    expect(list.data.map((run: Body) => run.number)).toEqual([5, 4, 3]);
    expect(list.meta.total).toBe(RUNS_KEPT);
    expect((await showReport(t, account, report.id)).runs_count).toBe(RUNS_KEPT);
    expectNotFound(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs/${first.id}`));
    // The oldest kept run has no older one to compare with.
    expectInvalid(await call(t, account, 'GET', `/api/v1/reports/${report.id}/diff?to=${list.data[2].id}`), 'from');
  });

  it('a report waiting for its first analysis has no runs; another account sees none of them', async () => {
    const account = await t.createAccount();
    const stranger = await t.createAccount('stranger');
    const report: Body = await createReport(t, account, page(goodPage()).url);
    const [run] = (await get(account, `/api/v1/reports/${report.id}/runs`)).data;
    for (const path of [`/runs`, `/runs/${run.id}`, `/diff`]) {
      expectNotFound(await call(t, stranger, 'GET', `/api/v1/reports/${report.id}${path}`));
    }
    expectNotFound(await call(t, account, 'GET', '/api/v1/reports/999999999/runs'));
    expect((await call(t, account, 'POST', `/api/v1/reports/${report.id}/runs`)).statusCode).toBe(405);
  });
});
