// Analyses tell webhooks how they ended (docs/api.md, "Webhook deliveries"): report.completed after
// every successful analysis, synchronous or not, with the report (state done, without results);
// report.failed after a failed analysis of a stored report; only to webhooks subscribed to the event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { BAD_PAGE, body, call, createReport, refusedUrl, type Account, type Body } from '../support/api-fixtures.ts';
import { waitFor } from '../queue/engines.ts';

describe.each(testDialects())('report events to webhooks [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 2 });
    site = await startSite({ '/': html(goodPage()) });
    receiver = await startReceiver([204]);
  });
  afterAll(async () => {
    await receiver?.close();
    await site?.close();
    await t?.close();
  });

  /** An account with a webhook on the receiver (its own path) for `events`. */
  async function subscribed(events: string): Promise<{ account: Account; received: () => Body[] }> {
    const account = await t.createAccount();
    const path = `/hook-${account.id}`;
    const response = await call(t, account, 'POST', '/api/v1/webhooks', { url: receiver.url(path), events });
    expect(response.statusCode, response.body).toBe(201);
    return { account, received: () => receiver.received.filter((delivery) => delivery.path === path).map((delivery) => JSON.parse(delivery.body)) };
  }

  it('a synchronous create and a results=1 each send report.completed with the report, without results', async () => {
    const { account, received } = await subscribed('report.completed');
    const report: Body = await createReport(t, account, site.url('/'));
    await waitFor(() => received().length === 1, 'the first event');
    const [event] = received();
    expect(event).toMatchObject({ type: 'report.completed', data: { id: report.id, state: 'done', score: report.score, runs_count: 1 } });
    expect(Date.parse(event.timestamp)).not.toBeNaN();
    expect(event.data).not.toHaveProperty('results');
    expect((await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1 })).statusCode).toBe(200);
    await waitFor(() => received().length === 2, 'the second event');
    expect(received()[1].data.runs_count).toBe(2);
  });

  it('an async create sends report.completed once it is done; one that cannot fetch its page sends report.failed', async () => {
    const { account, received } = await subscribed('report.completed,report.failed');
    const done = body(await call(t, account, 'POST', '/api/v1/reports', { url: site.url('/'), async: 1 })).data;
    const failed = body(await call(t, account, 'POST', '/api/v1/reports', { url: await refusedUrl(), async: 1 })).data;
    await waitFor(() => received().length === 2, 'both events');
    const byType = Object.fromEntries(received().map((event) => [event.type, event.data]));
    expect(byType['report.completed']).toMatchObject({ id: done.id, state: 'done', result: 'good' });
    expect(byType['report.failed']).toMatchObject({ id: failed.id, state: 'failed', last_error: { message: expect.stringMatching(/could not be analysed/) } });
  });

  it('sends report.regressed, with the diff, once for a page that got worse, and not when it stays as bad', async () => {
    const { account, received } = await subscribed('report.regressed');
    site.route('/changing', html(goodPage()));
    const report: Body = await createReport(t, account, site.url('/changing'));
    site.route('/changing', html(BAD_PAGE));
    for (let again = 0; again < 2; again += 1) {
      expect((await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { results: 1 })).statusCode).toBe(200);
    }
    await waitFor(() => received().length >= 1, 'the regression event');
    await new Promise((wait) => setTimeout(wait, 1_000));
    expect(received()).toHaveLength(1);
    const [event] = received();
    expect(event).toMatchObject({
      type: 'report.regressed',
      data: { id: report.id, result: 'bad', runs_count: 2, diff: { report_id: report.id, from: { number: 1, result: 'good' }, to: { number: 2, result: 'bad' }, result_changed: true } },
    });
    expect(event.data.diff.newly_failed.map((check: Body) => check.id)).toContain('title');
    expect(event.data).not.toHaveProperty('results');
  });

  it('sends nothing to a webhook not subscribed to the event', async () => {
    const { account, received } = await subscribed('report.failed');
    await createReport(t, account, site.url('/'));
    await new Promise((wait) => setTimeout(wait, 1_000));
    expect(received()).toEqual([]);
  });
});
