// Webhook rows as the API, the dashboard and the CLI show them: never the secret, encrypted or not.
import type { WebhookDeliveryRow, WebhookRow } from '../db/tables/webhook.table.ts';
import type { WebhookEvent } from './webhook-events.ts';

export interface Webhook {
  id: number;
  url: string;
  /** the organisation whose events it receives */
  organization: number;
  events: WebhookEvent[];
  created_at: string;
}

/** What registering answers, once: the only time the secret is shown. */
export interface CreatedWebhook extends Webhook {
  secret: string;
}

export interface WebhookDelivery {
  id: string;
  event: string;
  attempts: number;
  status: WebhookDeliveryRow['status'];
  response_status: number | null;
  /** why the last attempt failed, for the dashboard; null once delivered or before the first attempt */
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export function toWebhook(row: WebhookRow): Webhook {
  return { id: row.id, url: row.url, organization: row.organization_id, events: row.events.split(',') as WebhookEvent[], created_at: row.created_at };
}

export function toWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.event,
    attempts: row.attempts,
    status: row.status,
    response_status: row.response_status,
    last_error: row.last_error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
  };
}
