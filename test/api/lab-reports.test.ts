// Lab audits through the API (docs/lab.md, "Lab audits through the API"), with a stand-in browser whose
// lab audits are fixed (no Chromium needed): the checks, the scores, `lab` and its storage come from the
// real pipeline, the measurement crossing to the analysis thread. lab=1 on create, on results=1, with
// async=1 and on a schedule; 422s naming the allowed values, and without Chromium; a failed audit
// leaves `lab` null and the analysis done; a report without a lab audit scores exactly as before.
import { FormatRegistry, TypeRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/database.ts';
import type { Renderer } from '../../src/render/renderer.ts';
import type { LabMeasurement, LabProfileName } from '../../src/lab/lab-types.ts';
import { analyzerFromConfig } from '../../src/services/index.ts';
import { checksById } from '../../src/checks/index.ts';
import { scoreResults } from '../../src/scoring/score.ts';
import { NO_LAB_AUDIT_REASON } from '../../src/checks/lab-audit.ts';
import { ReportResponse } from '../../src/schemas/reports.ts';
import { RunResponse } from '../../src/schemas/runs.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { heroMeasurement, labResources, labStandInBrowser } from '../support/lab-fixtures.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { ISO_TIME, body, call, createReport, expectInvalid, listReports, showReport, type Account, type Body } from '../support/api-fixtures.ts';
import { waitFor } from '../queue/engines.ts';

if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => ISO_TIME.test(value));
if (!TypeRegistry.Has('Unsafe')) TypeRegistry.Set<{ enum: unknown[] }>('Unsafe', (schema, value) => schema.enum.includes(value));

/** Every field the schema names, of its type, and nothing it does not name. */
function expectMatches(schema: Parameters<typeof Value.Check>[0], value: unknown): void {
  expect([...Value.Errors(schema, value)].map((error) => `${error.path}: ${error.message}`)).toEqual([]);
  expect(Value.Clean(schema, Value.Clone(value))).toEqual(value);
}

/** A request's form fields. */
type Fields = Record<string, string | number>;

/** What the stand-in browser says of the one page it cannot observe. */
const UNOBSERVABLE_REASON = 'The lab audit could not load the page: net::ERR_CONNECTION_RESET.';
const UNOBSERVABLE_PATH = '/unobservable';

/** The hero page with a 3,000-byte script beside it, and five axe rules: image-alt violated, two passed. */
function measurement(profile: LabProfileName): LabMeasurement {
  return heroMeasurement(profile, {
    resources: labResources({ document: [1, 4100], script: [1, 3000], image: [1, 2000] }),
    accessibility: {
      ok: true,
      rules: {
        'image-alt': {
          outcome: 'violation',
          nodes: 1,
          violations: [{ selector: 'img#hero', snippet: '<img id="hero" src="/hero.png">', message: 'Fix any of the following:\n  Element does not have an alt attribute' }],
        },
        'html-has-lang': { outcome: 'passed' },
        'document-title': { outcome: 'passed' },
        'color-contrast': { outcome: 'incomplete' },
        'video-caption': { outcome: 'inapplicable' },
      },
    },
  });
}

/**
 * The report's `lab` of that measurement: the raw verdicts replaced by the checks' summary. Three
 * rules applied (image-alt, critical, failed; html-has-lang and document-title, serious, passed): 20 of
 * 30 points.
 */
function expectedLab(profile: LabProfileName) {
  const { accessibility: _raw, ...measured } = measurement(profile);
  return { ...measured, accessibility: { score: 67, violations: 1, rules_checked: 3 } };
}

interface StandInBrowser extends Renderer {
  /** Every lab audit asked for, in order. */
  audits: { url: string; profile: LabProfileName }[];
}

function standInBrowser(): StandInBrowser {
  const audits: StandInBrowser['audits'] = [];
  const browser = labStandInBrowser((url, profile) => {
    audits.push({ url, profile });
    if (new URL(url).pathname === UNOBSERVABLE_PATH) return { ok: false, reason: UNOBSERVABLE_REASON };
    return { ok: true, measurement: measurement(profile) };
  });
  return { ...browser, audits };
}

/** The checks a lab audit feeds: the five lab metrics and every a11y_ one. */
const LAB_CHECK_IDS = [...checksById.values()]
  .filter((check) => check.category === 'accessibility' || ['largest_contentful_paint', 'cumulative_layout_shift', 'first_contentful_paint', 'total_blocking_time', 'page_weight'].includes(check.id))
  .map((check) => check.id);

function withoutLabChecks(results: Record<string, Body>): Record<string, Body> {
  return Object.fromEntries(Object.entries(results).filter(([id]) => !LAB_CHECK_IDS.includes(id)));
}

/** Checks whose value is how long this fetch took: two fetches of one page differ there, and only there. */
const TIMED_CHECK_IDS = ['ttfb', 'load_time'];

/** The raw-HTML checks' results, the timed ones without their values, to compare two analyses of one page. */
function rawHtmlJudgement(results: Record<string, Body>): Record<string, Body> {
  return Object.fromEntries(
    Object.entries(withoutLabChecks(results)).map(([id, result]) => [id, TIMED_CHECK_IDS.includes(id) ? { ...result, value: 'timed' } : result]),
  );
}

/** An app whose analyses make their lab audits in `browser`; Chromium is "available" (any executable will do). */
function startLabApp(dialect: 'sqlite' | 'postgres', browser: Renderer, workers: number): Promise<TestApp> {
  return startTestApp(dialect, { chromiumPath: process.execPath, workers }, (config) => ({ analyzer: analyzerFromConfig(config, undefined, browser) }));
}

describe.each(testDialects())('lab=1 through the API [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let account: Account;
  const browser = standInBrowser();
  let paths = 0;

  /** A fresh path serving a good page, so each test counts its own audits. */
  function page(path = `/page-${++paths}`): string {
    site.route(path, html(goodPage()));
    return site.url(path);
  }
  const auditsOf = (url: string) => browser.audits.filter((audit) => audit.url === url).map((audit) => audit.profile);

  async function settled(id: number, runs: number): Promise<Body> {
    let report: Body;
    await waitFor(async () => {
      report = await showReport(t, account, id);
      return report.runs_count === runs && (report.state === 'done' || report.state === 'failed');
    }, `report ${id} to have ${runs} runs`, 20_000);
    return report!;
  }

  beforeAll(async () => {
    t = await startLabApp(dialect, browser, 1);
    site = await startSite();
    account = await t.createAccount();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('POST lab=1: audits the report\'s URL under mobile, stores and shows `lab`, and the lab and a11y_ checks judge it', async () => {
    const url = page();
    const response = await call(t, account, 'POST', '/api/v1/reports', { url, lab: 1 });
    expect(response.statusCode, response.body).toBe(201);
    const report = body(response).data;
    expect(auditsOf(url)).toEqual(['mobile']);
    expect(report.lab).toEqual(expectedLab('mobile'));
    expect(report.results.largest_contentful_paint).toMatchObject({ passed: false, category: 'performance', value: { value: 4690, band: 'poor' } });
    expect(report.results.cumulative_layout_shift).toMatchObject({ passed: true, value: { value: 0.012, band: 'good' } });
    expect(report.results.a11y_image_alt).toMatchObject({ passed: false, category: 'accessibility', importance: 'high', value: { nodes: 1 } });
    expect(report.results.a11y_html_has_lang).toMatchObject({ passed: true });
    expect(report.results.a11y_color_contrast).toMatchObject({ passed: null });

    const { duplicate_of: _duplicateOf, ...created } = report;
    const shown = await showReport(t, account, report.id);
    expect(shown).toEqual(created);
    expectMatches(ReportResponse, { data: shown, status: 200 });

    const [run] = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs`)).data;
    expect(run).not.toHaveProperty('lab');
    const fullRun = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs/${run.id}`));
    expect(fullRun.data.lab).toEqual(expectedLab('mobile'));
    expectMatches(RunResponse, fullRun);
    // List items leave it out, as they leave out results.
    const [item] = (await listReports(t, account, `search=${encodeURIComponent(new URL(url).pathname)}`)).data;
    expect(item.id).toBe(report.id);
    expect(item).not.toHaveProperty('lab');
  });

  it('lab_profile=desktop audits under desktop; lab_profile alone audits nothing', async () => {
    const url = page();
    const desktop = await createReport(t, account, url, { lab: 1, lab_profile: 'desktop' });
    expect(desktop.lab).toEqual(expectedLab('desktop'));
    const alone = await createReport(t, account, url, { lab: 0, lab_profile: 'desktop' });
    expect(alone.lab).toBeNull();
    expect(auditsOf(url)).toEqual(['desktop']);
  });

  it('refuses lab other than 0 and 1 and lab_profile other than mobile and desktop, whenever sent: nothing stored or audited', async () => {
    const url = page();
    const before = (await listReports(t, account)).meta.total;
    expect(expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url, lab: 2 }), 'lab')).toEqual(['The lab must be one of: 0, 1.']);
    for (const lab of ['yes', 'true', '-1']) {
      expect(expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url, lab }), 'lab')).toContain('The lab must be one of: 0, 1.');
    }
    for (const fields of [{ lab: 1, lab_profile: 'tablet' }, { lab: 0, lab_profile: 'Mobile' }, { lab_profile: 'tablet', async: 1 }] as Fields[]) {
      const messages = expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url, ...fields }), 'lab_profile');
      expect(messages).toEqual(['The lab_profile must be one of: mobile, desktop.']);
    }
    expect((await listReports(t, account)).meta.total).toBe(before);

    const report = await createReport(t, account, url);
    for (const fields of [{ results: 1, lab: 2 }, { lab: 'yes' }] as Fields[]) {
      expectInvalid(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, fields), 'lab');
    }
    expectInvalid(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1, lab: 1, lab_profile: 'tablet' }), 'lab_profile');
    expectInvalid(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { lab_profile: 'tablet' }), 'lab_profile');
    expect(await showReport(t, account, report.id)).toEqual(report);
    expect(auditsOf(url)).toEqual([]);
  });

  it('a page the audit cannot observe: `lab` null, its checks say why, the analysis done and scored as without one', async () => {
    site.route(UNOBSERVABLE_PATH, html(goodPage()));
    const url = site.url(UNOBSERVABLE_PATH);
    const failed = await createReport(t, account, url, { lab: 1 });
    expect(auditsOf(url)).toEqual(['mobile']);
    expect(failed).toMatchObject({ state: 'done', lab: null, last_error: null });
    for (const id of LAB_CHECK_IDS) expect(failed.results[id], id).toMatchObject({ passed: null, reason: UNOBSERVABLE_REASON });
    const plain = await createReport(t, account, url);
    expect(rawHtmlJudgement(failed.results)).toEqual(rawHtmlJudgement(plain.results));
    expect({ score: failed.score, result: failed.result, issues: failed.issues }).toEqual({ score: plain.score, result: plain.result, issues: plain.issues });
    expect(await showReport(t, account, failed.id)).toMatchObject({ lab: null });
  });

  it('a report without a lab audit scores exactly as before: the new checks do not apply and count for nothing', async () => {
    const url = page();
    const plain = await createReport(t, account, url);
    expect(plain.lab).toBeNull();
    expect(LAB_CHECK_IDS.length).toBeGreaterThan(5);
    for (const id of LAB_CHECK_IDS) expect(plain.results[id], id).toMatchObject({ passed: null, reason: NO_LAB_AUDIT_REASON });
    const before = scoreResults(withoutLabChecks(plain.results));
    expect({ score: plain.score, result: plain.result, issues: plain.issues }).toEqual(before);
    // The raw-HTML checks judge the same with a lab audit beside them.
    const audited = await createReport(t, account, url, { lab: 1 });
    expect(rawHtmlJudgement(audited.results)).toEqual(rawHtmlJudgement(plain.results));
    expect(auditsOf(url)).toEqual(['mobile']);
  });

  it('PUT results=1 lab=1 makes a run with a lab audit; results=1 alone one without; lab without results=1 does nothing; each run keeps its own', async () => {
    const url = page();
    const report = await createReport(t, account, url);
    const idle = body(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { lab: 1, lab_profile: 'desktop' }));
    expect(idle.data).toMatchObject({ runs_count: 1, lab: null });
    expect(auditsOf(url)).toEqual([]);

    const audited = await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1, lab: 1, lab_profile: 'desktop' });
    expect(audited.statusCode, audited.body).toBe(200);
    expect(body(audited).data).toMatchObject({ runs_count: 2, lab: expectedLab('desktop') });
    expect(body(audited).data.results.a11y_image_alt.passed).toBe(false);
    const plain = body(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1 })).data;
    expect(plain).toMatchObject({ runs_count: 3, lab: null });
    expect(plain.results.largest_contentful_paint).toMatchObject({ passed: null, reason: NO_LAB_AUDIT_REASON });
    expect(auditsOf(url)).toEqual(['desktop']);

    const runs = body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs`)).data;
    expect(runs.map((run: Body) => run.number)).toEqual([3, 2, 1]);
    const labs = [];
    for (const run of runs) labs.push(body(await call(t, account, 'GET', `/api/v1/reports/${report.id}/runs/${run.id}`)).data.lab);
    expect(labs).toEqual([null, expectedLab('desktop'), null]);
  });

  it('async=1 keeps lab and lab_profile in the job: the background analysis makes the audit, on create and on results=1', async () => {
    const url = page();
    const queued = await call(t, account, 'POST', '/api/v1/reports', { url, async: 1, lab: 1, lab_profile: 'desktop' });
    expect(queued.statusCode, queued.body).toBe(202);
    expect(body(queued).data).toMatchObject({ state: 'queued', lab: null });
    const id = body(queued).data.id;
    expect(await settled(id, 1)).toMatchObject({ state: 'done', lab: expectedLab('desktop') });

    const again = await call(t, account, 'PUT', `/api/v1/reports/${id}`, { results: 1, async: 1, lab: 1 });
    expect(again.statusCode, again.body).toBe(202);
    expect(await settled(id, 2)).toMatchObject({ state: 'done', lab: expectedLab('mobile') });
    expect(auditsOf(url)).toEqual(['desktop', 'mobile']);
  });

  it('a scheduled run makes a lab audit under the latest run\'s profile when it had one, failed or not; otherwise none', async () => {
    site.route(UNOBSERVABLE_PATH, html(goodPage()));
    const desktopUrl = page();
    const plainUrl = page();
    const desktop = await createReport(t, account, desktopUrl, { lab: 1, lab_profile: 'desktop', schedule: 'daily' });
    const plain = await createReport(t, account, plainUrl, { schedule: 'daily' });
    const failed = await createReport(t, account, site.url(UNOBSERVABLE_PATH), { lab: 1, schedule: 'daily' });
    const auditsBefore = auditsOf(site.url(UNOBSERVABLE_PATH)).length;
    const due = new Date(Math.max(...[desktop, plain, failed].map((report) => Date.parse(report.next_run_at))) + 1_000);
    expect(await t.app.services.scheduler.runDue(due)).toBe(3);

    const [desktopRun, plainRun, failedRun] = [await settled(desktop.id, 2), await settled(plain.id, 2), await settled(failed.id, 2)];
    expect(desktopRun).toMatchObject({ state: 'done', lab: expectedLab('desktop') });
    expect(plainRun).toMatchObject({ state: 'done', lab: null });
    expect(failedRun).toMatchObject({ state: 'done', lab: null });
    expect(auditsOf(desktopUrl)).toEqual(['desktop', 'desktop']);
    expect(auditsOf(plainUrl)).toEqual([]);
    expect(auditsOf(site.url(UNOBSERVABLE_PATH)).slice(auditsBefore)).toEqual(['mobile']);
    const [latest] = body(await call(t, account, 'GET', `/api/v1/reports/${desktop.id}/runs`)).data;
    expect(latest.trigger).toBe('schedule');
  });
});

describe('lab=1 without Chromium on the server', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { chromiumPath: '/nonexistent/chromium' });
    site = await startSite({ '/': html(goodPage()) });
    account = await t.createAccount();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('is a 422 on lab saying so, on create, with async=1 and on results=1, and nothing is stored; lab=0 works as before', async () => {
    const url = site.url('/');
    for (const fields of [{ lab: 1 }, { lab: 1, async: 1 }, { lab: 1, lab_profile: 'desktop' }] as Fields[]) {
      expect(expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url, ...fields }), 'lab')).toEqual(['Lab audits are not available on this server.']);
    }
    expect((await listReports(t, account)).meta.total).toBe(0);
    const report = await createReport(t, account, url, { lab: 0, lab_profile: 'desktop' });
    expect(report.lab).toBeNull();
    expect(expectInvalid(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1, lab: 1 }), 'lab')).toEqual([
      'Lab audits are not available on this server.',
    ]);
    expectInvalid(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1, lab: 1, async: 1 }), 'lab');
    expect(await showReport(t, account, report.id)).toEqual(report);
    expect((await listReports(t, account)).meta.total).toBe(1);
  });
});

describe('a lost job with lab=1', () => {
  let t: TestApp;
  let handle: DbHandle;
  let site: Site;
  const browser = standInBrowser();

  beforeAll(async () => {
    // No workers: jobs stay where the queue put them, and the test sweeps.
    t = await startLabApp('sqlite', browser, 0);
    handle = createDb(t.config.databaseUrl!);
    site = await startSite({ '/': html(goodPage()) });
  });
  afterAll(async () => {
    await site?.close();
    await handle?.destroy();
    await t?.close();
  });

  const payloadOf = async (key: string) => {
    const row = await handle.db.selectFrom('jobs').select('payload').where('key', '=', key).executeTakeFirst();
    return row && JSON.parse(row.payload);
  };

  it('is queued again with its lab profile', async () => {
    const account = await t.createAccount();
    const queued = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), async: 1, lab: 1, lab_profile: 'desktop' });
    expect(queued.statusCode, queued.body).toBe(202);
    const id = body(queued).data.id;
    expect(await payloadOf(`report-${id}-1`)).toMatchObject({ reportId: id, trigger: 'create', render: 0, lab: 'desktop' });
    await handle.db.deleteFrom('jobs').execute();
    await handle.db.updateTable('reports').set({ updated_at: new Date(Date.now() - 3_600_000).toISOString() }).where('id', '=', id).execute();
    expect(await t.app.services.lostJobs.sweep()).toMatchObject({ requeued: 1 });
    expect(await payloadOf(`report-${id}-2`)).toMatchObject({ reportId: id, trigger: 'create', lab: 'desktop', generation: 2 });

    const plain = await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), async: 1 });
    expect(await payloadOf(`report-${body(plain).data.id}-1`)).toMatchObject({ lab: '' });
  });
});
