// The dashboard's side of report history: each report's change since its previous run and its
// schedule in the reports list, and the schedule form on the manage page (valid, invalid in place,
// another account's report).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { BAD_PAGE, createReport, showReport, type Account } from '../support/api-fixtures.ts';
import { editablePage, goodPage, startSite, type Site } from '../support/site-server.ts';
import { WebClient, expectLabelledInputs, expectNoInlineCode, expectUniqueIds } from './web-client.ts';

describe.each(testDialects())('dashboard history and schedules [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  async function signedIn(): Promise<{ account: Account; browser: WebClient }> {
    const account = await t.createAccount();
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    return { account, browser };
  }

  /** A page the test can change between analyses. */
  function page(content: string): { url: string; set(next: string): void } {
    return editablePage(site, content);
  }

  /** The list row of a report, by its link. */
  function rowOf(body: string, id: number): string {
    return new RegExp(`<tr>\\s*<td data-label="Report" class="report-cell"><a class="report-link" href="/reports/${id}">[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  describe('the reports list', () => {
    it('shows each report\'s change since its previous run, as an arrow and as words', async () => {
      const { account, browser } = await signedIn();
      const falling = page(goodPage());
      const rising = page(BAD_PAGE);
      const down = await createReport(t, account, falling.url);
      const up = await createReport(t, account, rising.url);
      const single = await createReport(t, account, page(goodPage()).url);
      falling.set(BAD_PAGE);
      rising.set(goodPage());
      await t.app.services.reports.update(account.organization, down.id, { regenerate: true });
      await t.app.services.reports.update(account.organization, up.id, { regenerate: true });
      const downScore = (await showReport(t, account, down.id)).score;
      const upScore = (await showReport(t, account, up.id)).score;

      const { body } = await browser.get('/dashboard/reports');
      expect(body).toContain('<th scope="col">Change</th>');
      expect(rowOf(body, down.id)).toContain(`<span aria-hidden="true">▼ ${down.score - downScore}</span><span class="visually-hidden">score down ${down.score - downScore}</span>`);
      expect(rowOf(body, up.id)).toContain(`<span aria-hidden="true">▲ ${upScore - up.score}</span><span class="visually-hidden">score up ${upScore - up.score}</span>`);
      expect(rowOf(body, single.id)).toContain('<span class="visually-hidden">no previous run</span>');
      expectNoInlineCode(body);
      expectUniqueIds(body);
    });

    it('reads the previous scores of the page\'s reports only, and of the account\'s reports only', async () => {
      const { account } = await signedIn();
      const target = page(goodPage());
      const report = await createReport(t, account, target.url);
      target.set(BAD_PAGE);
      await t.app.services.reports.update(account.organization, report.id, { regenerate: true });
      const stranger = await t.createAccount();
      expect(await t.app.services.lists.previousScores(account.organization, [report.id])).toEqual(new Map([[report.id, report.score]]));
      expect(await t.app.services.lists.previousScores(stranger.organization, [report.id])).toEqual(new Map());
      expect(await t.app.services.lists.previousScores(account.organization, [])).toEqual(new Map());
    });

    it('shows each report\'s schedule: a word, the cron expression, or a dash', async () => {
      const { account, browser } = await signedIn();
      const weekly = await createReport(t, account, page(goodPage()).url, { schedule: 'weekly' });
      const cron = await createReport(t, account, page(goodPage()).url, { schedule: '0 6 * * 1' });
      const off = await createReport(t, account, page(goodPage()).url);
      const { body } = await browser.get('/dashboard/reports');
      expect(rowOf(body, weekly.id)).toContain('<td data-label="Schedule">weekly</td>');
      expect(rowOf(body, cron.id)).toContain('<td data-label="Schedule"><code class="schedule-cron">0 6 * * 1</code></td>');
      expect(rowOf(body, off.id)).toContain('<span class="visually-hidden">not scheduled</span>');
    });
  });

  describe('the schedule form', () => {
    it('sets a named schedule and shows when it runs next', async () => {
      const { account, browser } = await signedIn();
      const report = await createReport(t, account, page(goodPage()).url);
      const manage = await browser.get(`/dashboard/reports/${report.id}`);
      expect(manage.body).toContain('Not scheduled.');
      expect(manage.body).toContain('<option value="off" selected>Off</option>');
      expectLabelledInputs(manage.body);
      expectUniqueIds(manage.body);
      const saved = await browser.post(`/dashboard/reports/${report.id}/schedule`, { schedule: 'daily', cron: '' });
      expect(saved.statusCode, saved.body).toBe(303);
      expect(saved.headers.location).toBe(`/dashboard/reports/${report.id}?notice=schedule-saved`);
      const stored = await showReport(t, account, report.id);
      expect(stored.schedule).toBe('daily');
      const after = await browser.get(saved.headers.location as string);
      expect(after.body).toContain('Schedule saved.');
      expect(after.body).toContain(`Next run: <time datetime="${stored.next_run_at}">`);
      expect(after.body).toContain('<option value="daily" selected>Daily</option>');
    });

    it('sets a cron expression from the text field, and turns the schedule off again', async () => {
      const { account, browser } = await signedIn();
      const report = await createReport(t, account, page(goodPage()).url);
      await browser.get(`/dashboard/reports/${report.id}`);
      expect((await browser.post(`/dashboard/reports/${report.id}/schedule`, { schedule: 'cron', cron: '0  6 * * 1' })).statusCode).toBe(303);
      expect((await showReport(t, account, report.id)).schedule).toBe('0 6 * * 1');
      const manage = await browser.get(`/dashboard/reports/${report.id}`);
      expect(manage.body).toContain('<option value="cron" selected>');
      expect(manage.body).toContain('value="0 6 * * 1"');
      expect((await browser.post(`/dashboard/reports/${report.id}/schedule`, { schedule: 'off', cron: '0 6 * * 1' })).statusCode).toBe(303);
      const stored = await showReport(t, account, report.id);
      expect(stored).toMatchObject({ schedule: 'off', next_run_at: null });
    });

    it('answers an invalid schedule with 422 and the message in place, keeping what was typed; nothing changes', async () => {
      const { account, browser } = await signedIn();
      const report = await createReport(t, account, page(goodPage()).url, { schedule: 'weekly' });
      await browser.get(`/dashboard/reports/${report.id}`);
      for (const [fields, typed] of [
        [{ schedule: 'cron', cron: 'every <b>day</b>' }, 'every &lt;b&gt;day&lt;/b&gt;'],
        [{ schedule: 'cron', cron: '* * * * *' }, '* * * * *'],
        [{ schedule: 'hourly', cron: '' }, ''],
      ] as const) {
        const response = await browser.post(`/dashboard/reports/${report.id}/schedule`, fields);
        expect(response.statusCode, JSON.stringify(fields)).toBe(422);
        expect(response.body).toMatch(/<p class="field-error" id="schedule-error">[^<]+<\/p>/);
        expect(response.body).toContain('aria-invalid="true"');
        if (typed) expect(response.body).toContain(`value="${typed}"`);
        expect(response.body).not.toContain('<b>day</b>');
        expectUniqueIds(response.body);
      }
      expect((await showReport(t, account, report.id)).schedule).toBe('weekly');
    });

    it('is the owner\'s only: another account\'s report is not found', async () => {
      const { account } = await signedIn();
      const report = await createReport(t, account, page(goodPage()).url);
      const { browser: stranger } = await signedIn();
      await stranger.get('/dashboard/reports');
      expect((await stranger.post(`/dashboard/reports/${report.id}/schedule`, { schedule: 'daily' })).statusCode).toBe(404);
      expect((await showReport(t, account, report.id)).schedule).toBe('off');
    });
  });
});
