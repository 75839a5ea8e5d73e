// Background analysis through the API (docs/api.md, "Reports, runs and background analysis"): async=1
// on create and on results=1 answers 202 with the report queued; the app's own workers analyse it; the
// report moves through running to done, or to failed with last_error; results of the last good run stay
// visible meanwhile; results=1 on a report being analysed is a 409; lists filter by state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, holdGate, html, startSite, type Handler, type Site } from '../support/site-server.ts';
import { BAD_PAGE, body, call, createReport, expectInvalid, expectJson, listProjects, listReports, refusedUrl, showReport, type Account, type Body } from '../support/api-fixtures.ts';
import { waitFor } from '../queue/engines.ts';

const RUN_FIELDS = ['result', 'score', 'issues', 'page', 'results', 'generated_at'] as const;

describe.each(testDialects())('background analysis through the API [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let paths = 0;
  /** Answers held back until releaseHeld(), so a test can watch a report while it is being analysed. */
  let gate = holdGate();
  const heldUntilRelease = (handler: Handler) => gate.hold(handler);

  /** A path whose page is `page`, answered at once or, with `hold`, once released. */
  function route(page: string, hold = false): string {
    paths += 1;
    const path = `/async-${paths}`;
    site.route(path, hold ? heldUntilRelease(html(page)) : html(page));
    return path;
  }

  /** Opens the gate of every route held so far; routes made after it wait for the next. */
  function releaseHeld(): void {
    gate.release();
    gate = holdGate();
  }

  async function until(account: Account, id: number, states: string[]): Promise<Body> {
    let report: Body;
    try {
      await waitFor(async () => {
        report = await showReport(t, account, id);
        return states.includes(report.state);
      }, `report ${id} to be ${states.join(' or ')}`, 20_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}; it is ${report!.state} (${JSON.stringify(report!.last_error)})`);
    }
    return report!;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 2 });
    site = await startSite();
  });
  afterAll(async () => {
    releaseHeld();
    await site?.close();
    await t?.close();
  });

  it('async=1: 202 with Location and the report queued, without a run; then running; then done', async () => {
    const account = await t.createAccount();
    const path = route(goodPage(), true);
    const response = await call(t, account, 'POST', '/api/v1/reports', { url: site.url(path), async: 1 });
    expect(response.statusCode, response.body).toBe(202);
    expectJson(response);
    const created = body(response);
    expect(created.status).toBe(202);
    expect(response.headers.location).toBe(`/api/v1/reports/${created.data.id}`);
    expect(created.data).toMatchObject({ url: site.url(path), state: 'queued', last_error: null, runs_count: 0 });
    for (const field of RUN_FIELDS) expect(created.data[field], field).toBeNull();

    const running = await until(account, created.data.id, ['running']);
    for (const field of RUN_FIELDS) expect(running[field], field).toBeNull();
    // The project counts the report before it has a verdict.
    expect((await listProjects(t, account)).data).toEqual([
      expect.objectContaining({ reports_count: 1, result_counts: { good: 0, decent: 0, bad: 0 } }),
    ]);
    expect((await listReports(t, account, 'result=good')).data).toEqual([]);
    expect((await listReports(t, account, 'state=running')).data.map((item: Body) => item.id)).toEqual([created.data.id]);

    releaseHeld();
    const done = await until(account, created.data.id, ['done']);
    expect(done).toMatchObject({ result: 'good', state: 'done', last_error: null, runs_count: 1 });
    expect(Object.keys(done.results).length).toBeGreaterThan(40);
    expect(done.page.status_code).toBe(200);
    expect((await listProjects(t, account)).data).toEqual([
      expect.objectContaining({ reports_count: 1, result_counts: { good: 1, decent: 0, bad: 0 } }),
    ]);
    expect((await listReports(t, account, 'state=done')).meta.total).toBe(1);
  });

  it('a page that cannot be fetched leaves the report failed with last_error, and kept', async () => {
    const account = await t.createAccount();
    const url = await refusedUrl();
    const response = await call(t, account, 'POST', '/api/v1/reports', { url, async: '1' });
    expect(response.statusCode, response.body).toBe(202);
    const failed = await until(account, body(response).data.id, ['failed']);
    expect(failed.last_error).toEqual({ message: expect.stringMatching(/^The page could not be analysed: .*refused/i) });
    for (const field of RUN_FIELDS) expect(failed[field], field).toBeNull();
    expect((await listReports(t, account, 'state=failed')).meta.total).toBe(1);
    expect((await listReports(t, account, 'result=bad')).meta.total).toBe(0);
  });

  it('a malformed url or async value is a 422 at once and stores nothing', async () => {
    const account = await t.createAccount();
    expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: 'ftp://example.com/', async: 1 }), 'url');
    const messages = expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/x'), async: 2 }), 'async');
    expect(messages.join(' ')).toMatch(/0, 1/);
    expect((await listReports(t, account)).meta.total).toBe(0);
    expectInvalid(await call(t, account, 'GET', '/api/v1/reports?state=paused'), 'state');
  });

  it('results=1&async=1: 202, the previous results stay meanwhile, any results=1 is a 409; then the new run', async () => {
    const account = await t.createAccount();
    const path = route(goodPage());
    const first: Body = await createReport(t, account, site.url(path));
    site.route(path, heldUntilRelease(html(BAD_PAGE)));
    const response = await call(t, account, 'PUT', `/api/v1/reports/${first.id}`, { results: 1, async: 1, privacy: 1 });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.headers.location).toBe(`/api/v1/reports/${first.id}`);
    const queued = body(response).data;
    expect(queued).toMatchObject({ state: 'queued', privacy: 1, score: first.score, result: 'good', generated_at: first.generated_at });
    expect(queued.results).toEqual(first.results);

    await until(account, first.id, ['running']);
    for (const fields of [{ results: 1 }, { results: 1, async: 1 }] as Record<string, number>[]) {
      const conflict = await call(t, account, 'PUT', `/api/v1/reports/${first.id}`, fields);
      expect(conflict.statusCode, conflict.body).toBe(409);
      expect(body(conflict)).toEqual({ message: 'The report is already being analysed.', status: 409 });
    }
    // Changing privacy alone is not an analysis: allowed meanwhile.
    expect((await call(t, account, 'PUT', `/api/v1/reports/${first.id}`, { privacy: 0 })).statusCode).toBe(200);

    releaseHeld();
    const done = await until(account, first.id, ['done']);
    expect(done.result).toBe('bad');
    expect(done.runs_count).toBe(2);
    expect(done.generated_at > first.generated_at).toBe(true);
    expect((await listProjects(t, account)).data[0].result_counts).toEqual({ good: 0, decent: 0, bad: 1 });
  });

  it('a re-analysis that fails keeps the last good run and says why', async () => {
    const account = await t.createAccount();
    const path = route(goodPage());
    const first: Body = await createReport(t, account, site.url(path));
    site.route(path, (_request, response) => response.socket?.destroy());
    const response = await call(t, account, 'PUT', `/api/v1/reports/${first.id}`, { results: 1, async: 1 });
    expect(response.statusCode).toBe(202);
    const failed = await until(account, first.id, ['failed']);
    expect(failed.last_error.message).toMatch(/^The page could not be analysed: /);
    expect(failed).toMatchObject({ score: first.score, result: first.result, generated_at: first.generated_at, runs_count: 1 });
    expect(failed.results).toEqual(first.results);
    // A failed report may be analysed again; a success clears the error.
    site.route(path, html(goodPage()));
    const again = await call(t, account, 'PUT', `/api/v1/reports/${first.id}`, { results: 1 });
    expect(again.statusCode, again.body).toBe(200);
    expect(body(again).data).toMatchObject({ state: 'done', last_error: null });
  });

  it('reports without a run sort first ascending and last descending by date and by result', async () => {
    const account = await t.createAccount();
    const analysed: Body = await createReport(t, account, site.url(route(goodPage())));
    const waiting = body(await call(t, account, 'POST', '/api/v1/reports', { url: site.url(route(goodPage(), true)), async: 1 })).data;
    for (const sortBy of ['generated_at', 'result']) {
      const ascending = await listReports(t, account, `sort_by=${sortBy}&sort=asc`);
      expect(ascending.data.map((item: Body) => item.id), sortBy).toEqual([waiting.id, analysed.id]);
      const descending = await listReports(t, account, `sort_by=${sortBy}&sort=desc`);
      expect(descending.data.map((item: Body) => item.id), sortBy).toEqual([analysed.id, waiting.id]);
    }
    releaseHeld();
    await until(account, waiting.id, ['done']);
  });

  it('deleting a report while it waits for analysis leaves nothing behind', async () => {
    const account = await t.createAccount();
    const created = body(await call(t, account, 'POST', '/api/v1/reports', { url: site.url(route(goodPage(), true)), async: 1 })).data;
    await until(account, created.id, ['running']);
    expect((await call(t, account, 'DELETE', `/api/v1/reports/${created.id}`)).statusCode).toBe(200);
    releaseHeld();
    await new Promise((wait) => setTimeout(wait, 500));
    expect((await call(t, account, 'GET', `/api/v1/reports/${created.id}`)).statusCode).toBe(404);
    expect((await listProjects(t, account)).data).toEqual([]);
  });
});
