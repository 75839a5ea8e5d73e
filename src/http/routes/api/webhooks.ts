// /api/v1/webhooks: thin adapters over the webhook service and its lists.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateWebhookBody,
  DeliveryListResponse,
  WebhookCreatedResponse,
  WebhookDeletedResponse,
  WebhookIdParams,
  WebhookListQuery,
  WebhookListResponse,
} from '../../../schemas/webhooks.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import { parseId } from '../../../schemas/parse-id.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { allowOnly } from '../../method-not-allowed.ts';

const tags = ['webhooks'];
const notFound = { 404: { $ref: 'Error#' } };
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { webhooks, lists } = app.services;

  app.post(
    '/webhooks',
    {
      config: { action: 'manage webhooks' },
      schema: {
        tags,
        summary: 'Register a webhook',
        description:
          'Deliveries are signed as Standard Webhooks specifies (webhook-id, webhook-timestamp, webhook-signature) ' +
          'with the secret this answer holds, the only time it is shown.',
        body: CreateWebhookBody,
        consumes,
        response: { 201: WebhookCreatedResponse, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const webhook = await webhooks.register(request.organization.id, { url: request.body.url, events: request.body.events });
      reply.code(201).header('location', `/api/v1/webhooks/${webhook.id}`);
      return { data: webhook, status: 201 as const };
    },
  );

  app.get(
    '/webhooks',
    {
      config: { action: 'manage webhooks' },
      schema: {
        tags,
        summary: 'List webhooks',
        description: 'Only the caller\'s webhooks, without their secrets.',
        querystring: WebhookListQuery,
        response: { 200: WebhookListResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { page = 1, per_page: perPage = 100 } = request.query;
      return listEnvelope(request, await lists.webhooks(request.organization.id, { page, perPage }), { per_page: request.query.per_page });
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { action: 'manage webhooks' },
      schema: {
        tags,
        summary: 'Delete a webhook and its deliveries',
        params: WebhookIdParams,
        response: { 200: WebhookDeletedResponse, ...notFound, ...commonErrorResponses },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      await webhooks.remove(request.organization.id, id);
      return { id, object: 'webhook' as const, deleted: true as const, status: 200 as const };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { action: 'manage webhooks' },
      schema: {
        tags,
        summary: 'List a webhook\'s deliveries',
        description: 'Newest first; each delivery with its attempts so far and how the last one went.',
        params: WebhookIdParams,
        querystring: WebhookListQuery,
        response: { 200: DeliveryListResponse, ...notFound, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { page = 1, per_page: perPage = 100 } = request.query;
      const deliveries = await lists.webhookDeliveries(request.organization.id, parseId(request.params.id), { page, perPage });
      return listEnvelope(request, deliveries, { per_page: request.query.per_page });
    },
  );

  allowOnly(app, '/webhooks', ['GET', 'POST']);
  allowOnly(app, '/webhooks/:id', ['DELETE']);
  allowOnly(app, '/webhooks/:id/deliveries', ['GET']);
};
