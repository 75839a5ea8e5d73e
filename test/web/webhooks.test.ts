// The dashboard's webhooks page through real routing: adding one shows its secret once, the list shows
// each webhook's deliveries as the API lists them, and deleting asks first and needs the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call } from '../support/api-fixtures.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../queue/engines.ts';
import { WebClient, expectLabelledInputs, expectNoInlineCode, expectUniqueIds } from './web-client.ts';

const SECRET_FIELD = /id="webhook-secret" readonly size="60" value="(whsec_[^"]+)"/;

describe.each(testDialects())('dashboard webhooks [%s]', (dialect) => {
  let t: TestApp;
  let receiver: Receiver;

  async function signedIn() {
    const account = await t.createAccount();
    const browser = new WebClient(t.app);
    await browser.signIn(account.key);
    return { account, browser };
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { webhookRetryMs: [] });
    receiver = await startReceiver([200, 500]);
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('is linked from the dashboard navigation and offers the form with every event', async () => {
    const { browser } = await signedIn();
    const reports = await browser.get('/dashboard/reports');
    expect(reports.body).toContain('<a href="/dashboard/webhooks">Webhooks</a>');
    const page = await browser.get('/dashboard/webhooks');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/dashboard/webhooks" aria-current="page">Webhooks</a>');
    expect(page.body).toContain('No webhooks yet');
    for (const event of ['report.completed', 'report.failed', 'report.regressed', 'crawl.completed']) {
      expect(page.body).toContain(`name="events" value="${event}" checked`);
    }
    expectNoInlineCode(page.body);
    expectUniqueIds(page.body);
    expectLabelledInputs(page.body);
  });

  it('adds a webhook and shows its secret this once; the list then shows it without the secret', async () => {
    const { account, browser } = await signedIn();
    await browser.get('/dashboard/webhooks');
    const added = await browser.post('/dashboard/webhooks', { url: receiver.url(), events: 'report.completed,report.failed' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.headers['cache-control']).toBe('no-store');
    const secret = SECRET_FIELD.exec(added.body)?.[1];
    expect(secret).toMatch(/^whsec_/);
    expectUniqueIds(added.body);
    expectLabelledInputs(added.body);

    const [webhook] = body(await call(t, account, 'GET', '/api/v1/webhooks')).data;
    expect(webhook).toMatchObject({ url: receiver.url(), events: ['report.completed', 'report.failed'] });
    const list = await browser.get('/dashboard/webhooks');
    expect(list.body).toContain(receiver.url());
    expect(list.body).toContain('events: report.completed, report.failed');
    expect(list.body).not.toContain(secret!);
    expect(list.body).not.toContain('whsec_');
  });

  it('shows each delivery\'s status, attempts, response status and time', async () => {
    const { account, browser } = await signedIn();
    await browser.get('/dashboard/webhooks');
    await browser.post('/dashboard/webhooks', { url: receiver.url('/deliveries') });
    const [webhook] = body(await call(t, account, 'GET', '/api/v1/webhooks')).data;
    await t.app.services.webhooks.notify(account.organization, 'report.completed', { id: 1 });
    const settled = async () => body(await call(t, account, 'GET', `/api/v1/webhooks/${webhook.id}/deliveries`)).data;
    await waitFor(async () => (await settled()).every((delivery: { status: string }) => delivery.status !== 'pending'), 'the delivery');
    const [delivery] = await settled();
    const page = await browser.get('/dashboard/webhooks');
    expect(page.body).toContain('Recent deliveries (1 of 1 delivery)');
    const row = page.body.slice(page.body.indexOf('<td data-label="Event">report.completed</td>'));
    const statusName = delivery.status === 'delivered' ? 'Delivered' : 'Failed';
    expect(row).toContain(`<td data-label="Status">${statusName}`);
    expect(row).toContain(`<td data-label="Attempts">${delivery.attempts}</td>`);
    expect(row).toContain(`<td data-label="Response">${delivery.response_status}</td>`);
    expect(row).toContain(`<time datetime="${delivery.created_at}">`);
  });

  it('answers an invalid form with 422, the values kept and the error on its field', async () => {
    const { browser } = await signedIn();
    await browser.get('/dashboard/webhooks');
    const badUrl = await browser.post('/dashboard/webhooks', { url: 'ftp://example.com/x', events: 'report.failed' });
    expect(badUrl.statusCode).toBe(422);
    expect(badUrl.body).toContain('<p class="field-error" id="url-error">The url must use http or https');
    expect(badUrl.body).toContain('value="ftp://example.com/x" aria-invalid="true"');
    expect(badUrl.body).toContain('name="events" value="report.failed" checked');
    expect(badUrl.body).not.toContain('name="events" value="report.completed" checked');
    const badEvent = await browser.post('/dashboard/webhooks', { url: receiver.url(), events: 'report.deleted' });
    expect(badEvent.statusCode).toBe(422);
    expect(badEvent.body).toContain('<p class="field-error" id="events-error">The events must be one or more of:');
  });

  it('deletes a webhook after a confirmation page, only with the CSRF token, and never another account\'s', async () => {
    const { account, browser } = await signedIn();
    await browser.get('/dashboard/webhooks');
    await browser.post('/dashboard/webhooks', { url: receiver.url('/to-delete') });
    const [webhook] = body(await call(t, account, 'GET', '/api/v1/webhooks')).data;
    const path = `/dashboard/webhooks/${webhook.id}/delete`;
    expect((await browser.get('/dashboard/webhooks')).body).toContain(`href="${path}"`);

    const stranger = await signedIn();
    expect((await stranger.browser.get(path)).statusCode).toBe(404);
    await stranger.browser.get('/dashboard/webhooks');
    expect((await stranger.browser.post(path)).statusCode).toBe(404);

    const confirm = await browser.get(path);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`Delete the webhook to ${webhook.url}?`);
    expect((await browser.post(path, {}, { csrf: false })).statusCode).toBe(403);
    expect((await browser.post('/dashboard/webhooks', { url: receiver.url('/csrf') }, { csrf: false })).statusCode).toBe(403);
    expect(body(await call(t, account, 'GET', '/api/v1/webhooks')).meta.total).toBe(1);

    const deleted = await browser.post(path);
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe('/dashboard/webhooks?notice=webhook-deleted');
    expect((await browser.get(deleted.headers.location as string)).body).toContain('The webhook and its deliveries were deleted.');
    expect(body(await call(t, account, 'GET', '/api/v1/webhooks')).meta.total).toBe(0);
  });

  it('sends a visitor who is not signed in to sign in', async () => {
    const response = await new WebClient(t.app).get('/dashboard/webhooks');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^\/sign-in/);
  });
});
