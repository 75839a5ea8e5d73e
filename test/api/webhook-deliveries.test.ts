// Delivering webhooks through the real queue to receivers on this machine: Standard Webhooks
// signatures checked by an implementation written here (node:crypto), the same webhook-id on every
// retry, retries until delivered or failed, redirects not followed, and the address guard on delivery.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../src/config.ts';
import { createDb } from '../../src/db/database.ts';
import type { WebhookDeliveryRow } from '../../src/db/tables/webhook.table.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { startReceiver, type ReceivedDelivery, type Receiver } from '../support/webhook-receiver.ts';
import { body, call, type Account, type Body } from '../support/api-fixtures.ts';
import { waitFor } from '../queue/engines.ts';

/** The spec's signature, computed here without the library the service uses. */
function expectedSignature(secret: string, delivery: ReceivedDelivery): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${delivery.headers['webhook-id']}.${delivery.headers['webhook-timestamp']}.${delivery.body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

function expectSigned(secret: string, delivery: ReceivedDelivery): void {
  const expected = Buffer.from(expectedSignature(secret, delivery));
  const given = Buffer.from(String(delivery.headers['webhook-signature']));
  expect(given.length === expected.length && timingSafeEqual(given, expected), `signature ${given} should be ${expected}`).toBe(true);
}

describe.each(testDialects())('webhook deliveries [%s]', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function app(overrides: Partial<Config>): Promise<TestApp> {
    const t = await startTestApp(dialect, overrides);
    cleanups.push(() => t.close());
    return t;
  }

  async function receiver(answers: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const started = await startReceiver(answers);
    cleanups.push(() => started.close());
    return started;
  }

  async function register(t: TestApp, account: Account, url: string): Promise<Body> {
    const response = await call(t, account, 'POST', '/api/v1/webhooks', { url, events: 'report.completed' });
    expect(response.statusCode, response.body).toBe(201);
    return body(response).data;
  }

  async function settledDelivery(t: TestApp, account: Account, webhookId: number): Promise<Body> {
    let delivery: Body;
    await waitFor(
      async () => {
        const list = body(await call(t, account, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`));
        delivery = list.data[0];
        return delivery !== undefined && delivery.status !== 'pending';
      },
      'the delivery to be delivered or failed',
      20_000,
    );
    return delivery!;
  }

  it('retries a receiver that fails twice: same webhook-id, fresh timestamps, valid signatures; then delivered', async () => {
    // A second between attempts, so each attempt's Unix-seconds timestamp is later than the one before.
    const t = await app({ webhookRetryMs: [1000, 1000, 1000] });
    const hook = await receiver([500, 500, 204]);
    const account = await t.createAccount();
    const webhook = await register(t, account, hook.url());
    const report = { id: 7, url: 'https://example.com/', result: 'good', score: 91 };
    const [deliveryId] = await t.app.services.webhooks.notify(account.organization, 'report.completed', report);

    const delivery = await settledDelivery(t, account, webhook.id);
    expect(delivery).toMatchObject({ id: deliveryId, event: 'report.completed', status: 'delivered', attempts: 3, response_status: 204 });
    expect(Date.parse(delivery.delivered_at)).toBeGreaterThanOrEqual(Date.parse(delivery.created_at));

    expect(hook.received).toHaveLength(3);
    const timestamps = hook.received.map((attempt) => Number(attempt.headers['webhook-timestamp']));
    for (const [index, attempt] of hook.received.entries()) {
      expect(attempt.method).toBe('POST');
      expect(attempt.path).toBe('/hook');
      expect(attempt.headers['content-type']).toBe('application/json');
      expect(attempt.headers['webhook-id']).toBe(deliveryId);
      expect(Math.abs(timestamps[index] - attempt.receivedAt / 1000)).toBeLessThan(5);
      expectSigned(webhook.secret, attempt);
      // and the reference library agrees (it also checks the timestamp is recent)
      expect(new Webhook(webhook.secret).verify(attempt.body, attempt.headers as Record<string, string>)).toEqual(JSON.parse(attempt.body));
    }
    expect(timestamps[1]).toBeGreaterThan(timestamps[0]);
    expect(timestamps[2]).toBeGreaterThan(timestamps[1]);
    // every attempt sends the same bytes, fixed when the event happened
    expect(new Set(hook.received.map((attempt) => attempt.body)).size).toBe(1);
    const sent = JSON.parse(hook.received[0].body);
    expect(sent).toEqual({ type: 'report.completed', timestamp: expect.any(String), data: report });
    expect(Date.parse(sent.timestamp)).toBeLessThanOrEqual(hook.received[0].receivedAt);
  });

  it('marks a delivery failed when every attempt fails, with the last status', async () => {
    const t = await app({ webhookRetryMs: [50, 50] });
    const hook = await receiver([503]);
    const account = await t.createAccount();
    const webhook = await register(t, account, hook.url());
    await t.app.services.webhooks.notify(account.organization, 'report.completed', { id: 1 });
    const delivery = await settledDelivery(t, account, webhook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, response_status: 503, delivered_at: null });
    expect(hook.received).toHaveLength(3);
  });

  it('does not follow a redirect: the target receives nothing and the attempt failed with the 3xx', async () => {
    const t = await app({ webhookRetryMs: [] });
    const target = await receiver([200]);
    const redirecting = await receiver([{ status: 307, headers: { location: target.url('/elsewhere') } }]);
    const account = await t.createAccount();
    const webhook = await register(t, account, redirecting.url());
    await t.app.services.webhooks.notify(account.organization, 'report.completed', { id: 1 });
    const delivery = await settledDelivery(t, account, webhook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, response_status: 307 });
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toEqual([]);
  });

  it('a webhook deleted before its delivery runs sends nothing', async () => {
    const t = await app({ webhookRetryMs: [1000] });
    const hook = await receiver([500]);
    const account = await t.createAccount();
    const webhook = await register(t, account, hook.url());
    await t.app.services.webhooks.notify(account.organization, 'report.completed', { id: 1 });
    await waitFor(() => hook.received.length === 1, 'the first attempt');
    await call(t, account, 'DELETE', `/api/v1/webhooks/${webhook.id}`);
    await new Promise((wait) => setTimeout(wait, 2500));
    expect(hook.received).toHaveLength(1);
  });
  it('a delivery whose job the queue gave up ends failed with why; one already delivered stays delivered', async () => {
    const t = await app({ webhookRetryMs: [60_000] });
    const failing = await receiver([500]);
    const fine = await receiver([204]);
    const account = await t.createAccount();
    const pendingHook = await register(t, account, failing.url());
    const deliveredHook = await register(t, account, fine.url());
    const [first, second] = await t.app.services.webhooks.notify(account.organization, 'report.completed', { id: 1 });
    await waitFor(() => failing.received.length === 1 && fine.received.length === 1, 'both first attempts');
    await settledDelivery(t, account, deliveredHook.id);
    for (const deliveryId of [first, second]) await t.app.services.webhooks.giveUp({ deliveryId }, 'the worker kept dying');
    const deliveries = async (webhookId: number) => body(await call(t, account, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`)).data;
    const given = [...(await deliveries(pendingHook.id)), ...(await deliveries(deliveredHook.id))];
    expect(given.map((delivery: Body) => [delivery.id, delivery.status]).sort()).toEqual(
      [[first, pendingHook.id < deliveredHook.id ? 'failed' : 'delivered'], [second, pendingHook.id < deliveredHook.id ? 'delivered' : 'failed']].sort(),
    );
  });
});

describe('webhook deliveries under the private-address guard', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('delivers to an address the guard allows, and refuses to connect to one it does not, on every attempt', async () => {
    // 127.0.0.2 stands in for a public host (the guard's test seam); 127.0.0.1 stays loopback.
    const t = await startTestApp('sqlite', { allowPrivateUrls: false, publicAddressesForTests: ['127.0.0.2'], webhookRetryMs: [] });
    cleanups.push(() => t.close());
    const hook = await startReceiver([200], '127.0.0.2');
    cleanups.push(() => hook.close());
    const account = await t.createAccount();
    const response = await call(t, account, 'POST', '/api/v1/webhooks', { url: hook.url() });
    expect(response.statusCode, response.body).toBe(201);
    const [id] = await t.app.services.webhooks.notify(account.organization, 'report.completed', { id: 1 });
    await waitFor(() => hook.received.length === 1, 'the delivery');
    expect(hook.received[0].headers['webhook-id']).toBe(id);

    // A URL that is private by the time it is delivered to (here: written past the API's check, as a
    // DNS name that changed would be) is refused at connect time, and the attempt says why.
    const loopback = await startReceiver([200]);
    cleanups.push(() => loopback.close());
    const handle = createDb(t.config.databaseUrl);
    cleanups.push(() => handle.destroy());
    await handle.db.updateTable('webhooks').set({ url: loopback.url() }).where('organization_id', '=', account.organization).execute();
    const [refusedId] = await t.app.services.webhooks.notify(account.organization, 'report.completed', { id: 2 });
    let refused: WebhookDeliveryRow | undefined;
    await waitFor(async () => {
      refused = await handle.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', refusedId).executeTakeFirst();
      return refused?.status === 'failed';
    }, 'the refused delivery to fail');
    expect(refused).toMatchObject({ attempts: 1, response_status: null });
    expect(refused!.last_error).toContain('127.0.0.1 is a loopback address');
    expect(loopback.received).toEqual([]);
  });
});
