// The webhook lists (docs/api.md, "Webhook deliveries"): an account's webhooks, and one webhook's
// deliveries. Behind lists (index.ts), which checks whose webhook it is; the webhook service reads the
// same lists for the dashboard and the CLI after its own check.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import * as webhookRepository from '../repositories/webhook.repository.ts';
import { toWebhook, toWebhookDelivery, type Webhook, type WebhookDelivery } from '../services/webhook-view.ts';
import type { Page } from '../services/types.ts';
import { readPage } from './page.ts';

export interface WebhookListQuery {
  page: number;
  perPage: number;
}

/** One page of the account's webhooks, oldest first. */
export function readWebhooks(db: Kysely<Database>, accountId: number, query: WebhookListQuery): Promise<Page<Webhook>> {
  return readPage(
    query.page,
    query.perPage,
    async (window) => (await webhookRepository.listWebhooks(db, accountId, window)).map(toWebhook),
    () => webhookRepository.countWebhooks(db, accountId),
  );
}

/** One page of a webhook's deliveries, newest first (whose webhook it is, the caller has checked). */
export function readDeliveries(db: Kysely<Database>, webhookId: number, query: WebhookListQuery): Promise<Page<WebhookDelivery>> {
  return readPage(
    query.page,
    query.perPage,
    async (window) => (await webhookRepository.listDeliveries(db, webhookId, window)).map(toWebhookDelivery),
    () => webhookRepository.countDeliveries(db, webhookId),
  );
}
