// The dashboard's webhooks page: each webhook with its recent deliveries, the form that adds one, and,
// right after adding, the secret (shown this once, like the API's answer).
import type { Page } from '../../services/types.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../services/webhook-events.ts';
import type { CreatedWebhook, Webhook, WebhookDelivery } from '../../services/webhook-view.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, fieldError, invalidAttributes, otherErrors, type FieldErrors } from './form-parts.ts';
import { plural, shortUrl, timeElement } from './format.ts';
import { layout, type HeaderNav } from './layout.ts';

interface WebhookWithDeliveries {
  webhook: Webhook;
  recent: Page<WebhookDelivery>;
}

export interface WebhooksPageOptions {
  nav: HeaderNav;
  csrfToken: string;
  webhooks: WebhookWithDeliveries[];
  /** what the add form shows: the values sent back after an error */
  values: { url: string; events: readonly string[] };
  errors: FieldErrors;
  /** the webhook just added, with its secret */
  created?: CreatedWebhook;
  notice?: string;
}

const STATUS_NAMES: Record<WebhookDelivery['status'], string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

function createdPanel(created: CreatedWebhook): SafeHtml {
  return html`<section class="panel" role="status" aria-labelledby="secret-heading">
  <h2 id="secret-heading">Webhook added: copy its secret now</h2>
  <p>Deliveries to <strong>${created.url}</strong> are signed with this secret (Standard Webhooks). It is shown only this once.</p>
  <p><label for="webhook-secret">Signing secret</label><br><input id="webhook-secret" readonly size="60" value="${created.secret}"></p>
</section>`;
}

function deliveryRow(delivery: WebhookDelivery): SafeHtml {
  return html`<tr>
  <td data-label="Event">${delivery.event}</td>
  <td data-label="Status">${STATUS_NAMES[delivery.status]}${delivery.last_error ? html`<br><span class="hint">${delivery.last_error}</span>` : ''}</td>
  <td data-label="Attempts">${delivery.attempts}</td>
  <td data-label="Response">${delivery.response_status ?? '–'}</td>
  <td data-label="Created">${timeElement(delivery.created_at)}</td>
  <td data-label="Delivered">${delivery.delivered_at ? timeElement(delivery.delivered_at) : '–'}</td>
</tr>`;
}

function webhookSection({ webhook, recent }: WebhookWithDeliveries): SafeHtml {
  const deliveries =
    recent.items.length === 0
      ? html`<p class="empty">No deliveries yet.</p>`
      : html`<div class="table-wrap"><table class="list-table">
  <caption>Recent deliveries (${recent.items.length} of ${plural(recent.total, 'delivery', 'deliveries')})</caption>
  <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Response</th><th scope="col">Created</th><th scope="col">Delivered</th></tr></thead>
  <tbody>${recent.items.map(deliveryRow)}</tbody>
</table></div>`;
  return html`<section class="panel" aria-labelledby="webhook-${webhook.id}">
  <h2 id="webhook-${webhook.id}">${shortUrl(webhook.url)}</h2>
  <p class="muted">${webhook.url} · events: ${webhook.events.join(', ')} · added ${timeElement(webhook.created_at)}</p>
  ${deliveries}
  <p class="row-actions"><a class="danger-link" href="/dashboard/webhooks/${webhook.id}/delete">Delete<span class="visually-hidden"> the webhook ${webhook.url}</span></a></p>
</section>`;
}

function addForm(csrfToken: string, values: WebhooksPageOptions['values'], errors: FieldErrors): SafeHtml {
  const checked = (event: WebhookEvent) => values.events.length === 0 || values.events.includes(event);
  return html`<section class="panel" aria-labelledby="add-webhook">
  <h2 id="add-webhook">Add a webhook</h2>
  <form method="post" action="/dashboard/webhooks" class="form">
    ${csrfField(csrfToken)}
    ${otherErrors(errors, ['url', 'events'])}
    <div class="field">
      <label for="url">Receiver URL</label>
      <p class="hint" id="url-hint">An http or https address that accepts POST requests, such as https://example.com/hooks/pagegrade.</p>
      ${fieldError(errors, 'url')}
      <input id="url" name="url" type="url" inputmode="url" required maxlength="2048" value="${values.url}"${errors.url?.length ? invalidAttributes(errors, 'url') : html` aria-describedby="url-hint"`}>
    </div>
    <fieldset class="field">
      <legend>Events</legend>
      ${fieldError(errors, 'events')}
      ${WEBHOOK_EVENTS.map(
        (event) => html`<div class="choice">
  <input type="checkbox" id="event-${event}" name="events" value="${event}"${checked(event) ? html` checked` : ''}>
  <label for="event-${event}">${event}</label>
</div>`,
      )}
    </fieldset>
    <button type="submit" class="button button--primary">Add the webhook</button>
  </form>
</section>`;
}

export function webhooksPage(options: WebhooksPageOptions): SafeHtml {
  const { webhooks } = options;
  return layout({
    title: 'Webhooks · pagegrade',
    description: 'The URLs your reports\' events are sent to, and how their deliveries went.',
    nav: options.nav,
    main: html`<div class="page-heading"><h1>Webhooks</h1></div>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${options.created ? createdPanel(options.created) : ''}
${webhooks.length === 0 ? html`<p class="empty">No webhooks yet: add one to have report events sent to your URL.</p>` : webhooks.map(webhookSection)}
${addForm(options.csrfToken, options.values, options.errors)}`,
  });
}
