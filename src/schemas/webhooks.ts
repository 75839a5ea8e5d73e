// Request and response schemas of /api/v1/webhooks (docs/api.md, "Webhooks").
import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENTS } from '../services/webhook-events.ts';
import { ListEnvelope, ObjectEnvelope, PaginationQuery, Timestamp, oneOf } from './common.ts';

export const WebhookIdParams = Type.Object({ id: Type.String({ description: 'The webhook id, a positive integer.' }) });

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({
      maxLength: 2048,
      description:
        'Absolute http(s) URL, at most 2048 characters, no credentials. A host that is or resolves to a private ' +
        'address is refused unless the server allows private URLs.',
    }),
    // A form sends one string or repeats the field; with the array coercion a single string becomes a
    // list of one, and each item may itself be comma-separated.
    events: Type.Optional(
      Type.Array(Type.String({ maxLength: 200 }), {
        maxItems: WEBHOOK_EVENTS.length,
        description: `Comma-separated or a list; any of ${WEBHOOK_EVENTS.join(', ')}. Default: all of them.`,
      }),
    ),
  },
  { title: 'CreateWebhook' },
);

export const WebhookListQuery = Type.Object({ page: PaginationQuery.page, per_page: PaginationQuery.per_page });

const Events = Type.Array(oneOf(WEBHOOK_EVENTS));

const Webhook = Type.Object(
  { id: Type.Integer(), url: Type.String(), organization: Type.Integer({ description: 'The organisation whose events it receives.' }), events: Events, created_at: Timestamp },
  { $id: 'Webhook', description: 'A URL the account\'s events are sent to. Its secret is shown only when it is created.' },
);

const CreatedWebhook = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    organization: Type.Integer({ description: 'The organisation whose events it receives.' }),
    events: Events,
    secret: Type.String({ description: '`whsec_` + base64 of 32 random bytes: the signing key. Shown only here.' }),
    created_at: Timestamp,
  },
  { $id: 'CreatedWebhookData' },
);

const Delivery = Type.Object(
  {
    id: Type.String({ description: 'The webhook-id header: the same on every attempt.' }),
    event: oneOf(WEBHOOK_EVENTS),
    attempts: Type.Integer(),
    status: oneOf(['pending', 'delivered', 'failed'] as const),
    response_status: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the last attempt.' }),
    created_at: Timestamp,
    delivered_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'WebhookDelivery' },
);

export const WebhookCreatedResponse = ObjectEnvelope(CreatedWebhook, 201, {
  title: 'WebhookCreated',
  description: 'The webhook, with its secret: store it now, it is not shown again.',
});
export const WebhookListResponse = ListEnvelope(Webhook, { title: 'WebhookList', description: 'A page of the caller\'s webhooks, oldest first.' });
export const DeliveryListResponse = ListEnvelope(Delivery, {
  title: 'WebhookDeliveryList',
  description: 'A page of the webhook\'s deliveries, newest first.',
});
export const WebhookDeletedResponse = Type.Object(
  { id: Type.Integer(), object: Type.Literal('webhook'), deleted: Type.Literal(true), status: Type.Literal(200) },
  { title: 'WebhookDeleted', description: 'The webhook and its deliveries are gone.' },
);
