// Schedules (`schedule` in docs/api.md): `schedule` on create and update, with next_run_at; a cron expression
// more frequent than PAGEGRADE_MIN_SCHEDULE_MINUTES is a 422; and the scheduler queues each due
// report once however many processes look, skips a slot while the report is being analysed, and runs
// a long-missed schedule once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { body, call, createReport, expectInvalid, listReports, showReport, type Body } from '../support/api-fixtures.ts';

const DAY_MS = 24 * 3600 * 1000;

describe.each(testDialects())('report schedules [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  beforeAll(async () => {
    // No workers: queued analyses wait, so the test sees exactly what the scheduler queued.
    t = await startTestApp(dialect, { workers: 0 });
    site = await startSite({ '/': html(goodPage()) });
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('takes a schedule on create and update and says when it runs next', async () => {
    const account = await t.createAccount();
    const before = Date.now();
    const report: Body = await createReport(t, account, site.url('/'), { schedule: 'daily' });
    expect(report.schedule).toBe('daily');
    expect(Date.parse(report.next_run_at) - before).toBeGreaterThanOrEqual(DAY_MS);
    expect(Date.parse(report.next_run_at) - Date.now()).toBeLessThanOrEqual(DAY_MS);

    const hourly = body(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { schedule: '15 * * * *' })).data;
    expect(hourly.schedule).toBe('15 * * * *');
    expect(new Date(hourly.next_run_at).getUTCMinutes()).toBe(15);
    const off = body(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { schedule: 'off' })).data;
    expect(off).toMatchObject({ schedule: 'off', next_run_at: null });
    const plain: Body = await createReport(t, account, site.url('/'));
    expect(plain).toMatchObject({ schedule: 'off', next_run_at: null });
  });

  it('refuses a schedule it cannot read, or more often than the minimum, naming it; nothing changes', async () => {
    const account = await t.createAccount();
    expect(expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), schedule: '*/10 * * * *' }), 'schedule')).toEqual([
      'The schedule must not run more often than every 60 minutes; this one runs 10 minutes apart.',
    ]);
    expect((await listReports(t, account)).meta.total).toBe(0);
    const report: Body = await createReport(t, account, site.url('/'), { schedule: 'weekly' });
    expectInvalid(await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { schedule: 'every tuesday' }), 'schedule');
    expect(await showReport(t, account, report.id)).toMatchObject({ schedule: 'weekly', next_run_at: report.next_run_at });
  });

  it('queues a due report once however many processes look, then skips slots while it is being analysed', async () => {
    const account = await t.createAccount();
    const report: Body = await createReport(t, account, site.url('/'), { schedule: 'daily' });
    const due = new Date(Date.parse(report.next_run_at) + 1_000);
    const { scheduler } = t.app.services;
    const queued = await Promise.all([scheduler.runDue(due), scheduler.runDue(due), scheduler.runDue(due)]);
    expect(queued.reduce((sum, count) => sum + count, 0)).toBe(1);
    const after = await showReport(t, account, report.id);
    expect(after.state).toBe('queued');
    expect(Date.parse(after.next_run_at)).toBe(Date.parse(report.next_run_at) + DAY_MS);
    // The analysis queued for that slot has not run (no workers): the next slot passes it by.
    const nextDue = new Date(Date.parse(after.next_run_at) + 1_000);
    await scheduler.runDue(nextDue);
    const skipped = await showReport(t, account, report.id);
    expect(skipped).toMatchObject({ state: 'queued', runs_count: 1 });
    expect(Date.parse(skipped.next_run_at)).toBe(Date.parse(after.next_run_at) + DAY_MS);
  });

  it('runs a schedule missed for days once, then at its next slot after now', async () => {
    const account = await t.createAccount();
    const report: Body = await createReport(t, account, site.url('/'), { schedule: 'daily' });
    const weekLater = new Date(Date.parse(report.next_run_at) + 6 * DAY_MS + 3_600_000);
    expect(await t.app.services.scheduler.runDue(weekLater)).toBeGreaterThanOrEqual(1);
    const after = await showReport(t, account, report.id);
    expect(after.state).toBe('queued');
    // Same time of day as the schedule was set, the first such moment after "now".
    expect(Date.parse(after.next_run_at)).toBe(Date.parse(report.next_run_at) + 7 * DAY_MS);
    expect(await t.app.services.scheduler.runDue(weekLater)).toBe(0);
  });
});
