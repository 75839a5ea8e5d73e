// The events a webhook can subscribe to (docs/api.md, "Webhook deliveries"), and reading a subscription
// from a request.
import { ValidationError } from './errors.ts';

export const WEBHOOK_EVENTS = ['report.completed', 'report.failed', 'report.regressed', 'crawl.completed', 'crawl.regressed'] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

function isWebhookEvent(name: string): name is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * `events` as a comma-separated string, a list, or a list of comma-separated strings (a form may
 * repeat the field): the distinct events in the catalogue's order. Nothing given: every event.
 */
export function parseWebhookEvents(input: string | readonly string[] | undefined): WebhookEvent[] {
  const names = (typeof input === 'string' ? [input] : (input ?? []))
    .flatMap((item) => item.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return [...WEBHOOK_EVENTS];
  const unknown = names.filter((name) => !isWebhookEvent(name));
  if (unknown.length > 0) {
    throw new ValidationError(
      'events',
      `The events must be one or more of: ${WEBHOOK_EVENTS.join(', ')}; unknown: ${[...new Set(unknown)].join(', ')}.`,
    );
  }
  return WEBHOOK_EVENTS.filter((event) => names.includes(event));
}
