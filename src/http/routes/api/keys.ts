// /api/v1/keys: the caller's own API keys (docs/organisations.md, "API keys").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { CreateKeyBody, KeyCreatedResponse, KeyDeletedResponse, KeyListQuery, KeyListResponse, KeyPrefixParams } from '../../../schemas/keys.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import type { KeyOwner } from '../../../services/key.service.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { allowOnly } from '../../method-not-allowed.ts';

const tags = ['keys'];
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

function ownerOf(request: FastifyRequest): KeyOwner {
  return { userId: request.account.id, boundTo: request.apiKey.organization };
}

export const keyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { keys } = app.services;

  app.post(
    '/keys',
    {
      schema: {
        tags,
        summary: 'Create an API key',
        description: 'The secret is in this answer only. A key bound to an organisation works only there.',
        body: CreateKeyBody,
        consumes,
        response: { 201: KeyCreatedResponse, 403: { $ref: 'Error#' }, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const key = await keys.create(ownerOf(request), request.body ?? {});
      reply.code(201);
      return { data: key, status: 201 as const };
    },
  );

  app.get(
    '/keys',
    {
      schema: { tags, summary: 'List your active API keys', querystring: KeyListQuery, response: { 200: KeyListResponse, ...commonErrorResponses } },
    },
    async (request) => {
      const { page = 1, per_page: perPage = 100 } = request.query;
      return listEnvelope(request, await keys.list(ownerOf(request), { page, perPage }), { per_page: request.query.per_page });
    },
  );
  allowOnly(app, '/keys', ['GET', 'POST']);

  app.delete(
    '/keys/:prefix',
    {
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: KeyPrefixParams,
        response: { 200: KeyDeletedResponse, 403: { $ref: 'Error#' }, 404: { $ref: 'Error#' }, ...commonErrorResponses },
      },
    },
    async (request) => {
      const key = await keys.revoke(ownerOf(request), request.params.prefix);
      return { prefix: key.prefix, object: 'key' as const, deleted: true as const, status: 200 as const };
    },
  );
  allowOnly(app, '/keys/:prefix', ['DELETE']);
};
