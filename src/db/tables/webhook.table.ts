import type { Generated, Insertable, Selectable } from 'kysely';

/** An account's webhook endpoint (docs/api.md, "Webhooks"). */
export interface WebhooksTable {
  id: Generated<number>;
  organization_id: number;
  url: string;
  /** comma-joined event names */
  events: string;
  /** the signing secret, encrypted with PAGEGRADE_SECRET_KEY (security/secret-box.ts) */
  secret_encrypted: string;
  created_at: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event sent to one webhook; its attempts share the id (the webhook-id header). */
export interface WebhookDeliveriesTable {
  /** "msg_" + random */
  id: string;
  webhook_id: number;
  event: string;
  /** the exact body sent and signed on every attempt */
  payload: string;
  /** attempts made so far */
  attempts: Generated<number>;
  status: WebhookDeliveryStatus;
  /** the receiver's HTTP status on the last attempt; null when it gave none (refused, timed out) */
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export type WebhookRow = Selectable<WebhooksTable>;
export type NewWebhook = Insertable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDelivery = Insertable<WebhookDeliveriesTable>;
