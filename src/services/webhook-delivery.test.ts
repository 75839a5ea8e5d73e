// The delivery job run by hand, with the queue replaced by a list: what it queues next, and that a
// job run twice (a process died mid-run) never sends an attempt twice.
import { readDeliveries } from '../lists/webhooks.ts';
import { randomUUID } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { startReceiver, type Receiver } from '../../test/support/webhook-receiver.ts';
import { insertUser } from '../repositories/user.repository.ts';
import type { DeliverPayload } from './webhook-delivery.ts';
import { createWebhookService } from './webhook.service.ts';

const KEY = 'webhook-delivery-test-key-0123456789';

forEachDialect('the webhook.deliver job', (database) => {
  const receivers: Receiver[] = [];
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  async function setup(answers: number[], retryMs = [10, 20]) {
    const { db } = database();
    const receiver = await startReceiver(answers);
    receivers.push(receiver);
    const queued: { payload: DeliverPayload; delayMs?: number }[] = [];
    const service = createWebhookService(db, async (payload, options) => queued.push({ payload, delayMs: options.delayMs }), {
      secretKey: KEY,
      allowPrivateUrls: true,
      retryMs,
      userAgent: 'pagegrade-test',
    });
    const user = await insertUser(db, { email: `${randomUUID()}@example.com`, is_admin: 0, created_at: new Date().toISOString() });
    const webhook = await service.register(user.id, { url: receiver.url(), events: 'report.completed' });
    const [deliveryId] = await service.notify(user.id, 'report.completed', { id: 1 });
    const delivery = async () => (await readDeliveries(db, webhook.id, { page: 1, perPage: 10 })).items[0];
    return { service, receiver, queued, deliveryId, delivery };
  }

  it('queues the first attempt on notify, and each next one after a failure with the configured wait', async () => {
    const { service, receiver, queued, deliveryId, delivery } = await setup([500, 500, 500]);
    expect(queued).toEqual([{ payload: { deliveryId, attempt: 1 }, delayMs: undefined }]);
    await service.deliver({ deliveryId, attempt: 1 });
    await service.deliver({ deliveryId, attempt: 2 });
    expect(queued.slice(1)).toEqual([
      { payload: { deliveryId, attempt: 2 }, delayMs: 10 },
      { payload: { deliveryId, attempt: 3 }, delayMs: 20 },
    ]);
    await service.deliver({ deliveryId, attempt: 3 });
    expect(queued).toHaveLength(3);
    expect(await delivery()).toMatchObject({ status: 'failed', attempts: 3, response_status: 500 });
    expect(receiver.received).toHaveLength(3);
  });

  it('a job run again after its attempt was recorded sends nothing, and makes sure the next attempt is queued', async () => {
    const { service, receiver, queued, deliveryId, delivery } = await setup([500, 200]);
    await service.deliver({ deliveryId, attempt: 1 });
    await service.deliver({ deliveryId, attempt: 1 });
    expect(receiver.received).toHaveLength(1);
    expect(queued.slice(1).map((job) => job.payload)).toEqual([
      { deliveryId, attempt: 2 },
      { deliveryId, attempt: 2 },
    ]);
    await service.deliver({ deliveryId, attempt: 2 });
    // the duplicate job for attempt 2 finds it delivered
    await service.deliver({ deliveryId, attempt: 2 });
    expect(receiver.received).toHaveLength(2);
    expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 2, response_status: 200 });
    expect(queued).toHaveLength(3);
  });

  it('a delivery whose webhook was deleted is nothing to do', async () => {
    const { db } = database();
    const { service, receiver, deliveryId } = await setup([200]);
    await db.deleteFrom('webhooks').where('url', '=', receiver.url()).execute();
    await service.deliver({ deliveryId, attempt: 1 });
    expect(receiver.received).toEqual([]);
  });

  it('a stored secret that cannot be decrypted (the key changed) is a failed attempt that says why', async () => {
    const { db } = database();
    const { service, receiver, deliveryId } = await setup([200], []);
    await db.updateTable('webhooks').set({ secret_encrypted: 'v1.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA' }).where('url', '=', receiver.url()).execute();
    await service.deliver({ deliveryId, attempt: 1 });
    const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', attempts: 1, response_status: null });
    expect(row.last_error).toMatch(/PAGEGRADE_SECRET_KEY is not the key it was stored with/);
    expect(receiver.received).toEqual([]);
  });

  it('a delivery the queue cannot take is failed at once with why, never left pending', async () => {
    const { db } = database();
    const receiver = await startReceiver([204]);
    receivers.push(receiver);
    const service = createWebhookService(db, async () => {
      throw new Error('Redis is away');
    }, { secretKey: KEY, allowPrivateUrls: true, retryMs: [10], userAgent: 'pagegrade-test' });
    const user = await insertUser(db, { email: `${randomUUID()}@example.com`, is_admin: 0, created_at: new Date().toISOString() });
    const webhook = await service.register(user.id, { url: receiver.url(), events: 'report.completed' });
    const [deliveryId] = await service.notify(user.id, 'report.completed', { id: 1 });
    const [delivery] = (await readDeliveries(db, webhook.id, { page: 1, perPage: 10 })).items;
    expect(delivery).toMatchObject({ id: deliveryId, status: 'failed', attempts: 0 });
    expect(receiver.received).toEqual([]);
  });
});
