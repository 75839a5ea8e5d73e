// /api/v1/reports/{id}/shares and /api/v1/crawls/{id}/shares: thin adapters over the share-link
// service (docs/organisations.md, "Share links"). The same three routes for each kind of target.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  CreateShareBody,
  ShareCreatedResponse,
  ShareDeletedResponse,
  ShareListQuery,
  ShareListResponse,
  ShareTargetParams,
  ShareTokenParams,
} from '../../../schemas/shares.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import { parseId } from '../../../schemas/parse-id.ts';
import type { ShareTarget } from '../../../services/share-link.service.ts';
import type { Action } from '../../../services/roles.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { allowOnly } from '../../method-not-allowed.ts';

const tags = ['shares'];
const consumes = ['application/x-www-form-urlencoded', 'application/json'];
const refusals = { 403: { $ref: 'Error#' }, 404: { $ref: 'Error#' } };

const KINDS = [
  { kind: 'report', path: '/reports', noun: 'report', share: 'share reports' },
  { kind: 'crawl', path: '/crawls', noun: 'crawl', share: 'share crawls' },
] as const satisfies readonly { kind: ShareTarget['kind']; path: string; noun: string; share: Action }[];

/** The request's own origin, as the list envelope's links are built (list-envelope.ts). */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export const shareRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { shares } = app.services;

  for (const { kind, path, noun, share } of KINDS) {
    const target = (id: string): ShareTarget => ({ kind, id: parseId(id) });

    app.post(
      `${path}/:id/shares`,
      {
        config: { action: share },
        schema: {
          tags,
          summary: `Share a ${noun}`,
          description:
            `A link that opens the ${noun}'s page to anyone who has it, without sign-in, until it expires or is revoked. ` +
            'The token is in this answer only.',
          params: ShareTargetParams,
          body: CreateShareBody,
          consumes,
          response: { 201: ShareCreatedResponse, ...refusals, ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const created = await shares.create(
          request.organization.id,
          target(request.params.id),
          { userId: request.account.id, email: request.account.email },
          request.body ?? {},
        );
        const url = `${originOf(request)}/s/${created.token}`;
        reply.code(201).header('location', url);
        return { data: { ...created, url }, status: 201 as const };
      },
    );

    app.get(
      `${path}/:id/shares`,
      {
        schema: {
          tags,
          summary: `List a ${noun}'s share links`,
          description: 'The links neither expired nor revoked, newest first, without their tokens.',
          params: ShareTargetParams,
          querystring: ShareListQuery,
          response: { 200: ShareListResponse, ...refusals, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { page = 1, per_page: perPage = 100 } = request.query;
        const links = await shares.list(request.organization.id, target(request.params.id), { page, perPage });
        return listEnvelope(request, links, { per_page: request.query.per_page });
      },
    );

    app.delete(
      `${path}/:id/shares/:token`,
      {
        config: { action: 'revoke share links' },
        schema: {
          tags,
          summary: `Revoke a ${noun}'s share link`,
          description: 'By its whole token or its prefix; from then on its page is the Not found page.',
          params: ShareTokenParams,
          response: { 200: ShareDeletedResponse, ...refusals, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { prefix } = await shares.revoke(request.organization.id, target(request.params.id), request.params.token);
        return { prefix, object: 'share' as const, deleted: true as const, status: 200 as const };
      },
    );

    allowOnly(app, `${path}/:id/shares`, ['GET', 'POST']);
    allowOnly(app, `${path}/:id/shares/:token`, ['DELETE']);
  }
};
