// Webhooks and their deliveries. Every read and write that starts from an account is scoped by its
// organization_id; the delivery job, which starts from a delivery id, reads the webhook the delivery belongs to.
import type { DbExecutor } from './executor.ts';
import type { PageWindow } from '../lists/page.ts';
import type {
  NewWebhook,
  NewWebhookDelivery,
  WebhookDeliveryRow,
  WebhookDeliveryStatus,
  WebhookRow,
} from '../db/tables/webhook.table.ts';

export async function insertWebhook(db: DbExecutor, webhook: Omit<NewWebhook, 'id'>): Promise<WebhookRow> {
  return db.insertInto('webhooks').values(webhook).returningAll().executeTakeFirstOrThrow();
}

export async function countWebhooks(db: DbExecutor, organizationId: number): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The account's webhooks, oldest first. */
export async function listWebhooks(db: DbExecutor, organizationId: number, window: PageWindow): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

/** Every webhook of the account, for notify to pick the subscribed ones (an account has a few). */
export async function allWebhooks(db: DbExecutor, organizationId: number): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute();
}

export async function findWebhook(db: DbExecutor, organizationId: number, id: number): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** Deletes the webhook with its deliveries (cascade); false when the account has no such webhook. */
export async function deleteWebhook(db: DbExecutor, organizationId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertDeliveries(db: DbExecutor, deliveries: NewWebhookDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db.insertInto('webhook_deliveries').values(deliveries).execute();
}

/** A page of one webhook's deliveries, newest first (the caller has checked the webhook is the account's). */
export async function listDeliveries(db: DbExecutor, webhookId: number, window: PageWindow): Promise<WebhookDeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

export async function countDeliveries(db: DbExecutor, webhookId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A delivery with the webhook it goes to; undefined when either is gone. */
export async function findDeliveryWithWebhook(
  db: DbExecutor,
  deliveryId: string,
): Promise<{ delivery: WebhookDeliveryRow; webhook: WebhookRow } | undefined> {
  const delivery = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirst();
  if (!delivery) return undefined;
  const webhook = await db.selectFrom('webhooks').selectAll().where('id', '=', delivery.webhook_id).executeTakeFirst();
  return webhook && { delivery, webhook };
}

export interface AttemptRecord {
  attempt: number;
  status: WebhookDeliveryStatus;
  responseStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

/**
 * Records attempt `attempt` on a delivery still pending whose earlier attempts are all recorded; false
 * when another run of the same job got there first (then this run's outcome is not recorded twice).
 */
export async function recordAttempt(db: DbExecutor, deliveryId: string, record: AttemptRecord): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: record.attempt,
      status: record.status,
      response_status: record.responseStatus,
      last_error: record.lastError,
      delivered_at: record.deliveredAt,
    })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .where('attempts', '<', record.attempt)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A delivery the queue gave up on (its job kept failing): failed, with why, unless it already ended. */
export async function failDelivery(db: DbExecutor, deliveryId: string, error: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: error })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .execute();
}
