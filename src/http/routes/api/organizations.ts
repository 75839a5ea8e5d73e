// /api/v1/organizations: thin adapters over the organisation service (docs/organisations.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  CreateOrganizationBody,
  OrganizationCreatedResponse,
  OrganizationDeletedResponse,
  OrganizationIdParams,
  OrganizationListQuery,
  OrganizationListResponse,
  OrganizationResponse,
  UpdateOrganizationBody,
} from '../../../schemas/organizations.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import { parseId } from '../../../schemas/parse-id.ts';
import type { OrganizationView } from '../../../services/organization.service.ts';
import { callerOf } from '../../plugins/api-key-auth.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { allowOnly } from '../../method-not-allowed.ts';

const tags = ['organizations'];
const refusals = { 403: { $ref: 'Error#' }, 404: { $ref: 'Error#' } };
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

/** The view with its logo's path made absolute on the request's own origin. */
function absoluteOrganization(request: FastifyRequest, view: OrganizationView): OrganizationView {
  const origin = `${request.protocol}://${request.host}`;
  return { ...view, brand_logo: view.brand_logo === null ? null : `${origin}${view.brand_logo}` };
}

export const organizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { organizations } = app.services;

  app.post(
    '/organizations',
    {
      schema: {
        tags,
        summary: 'Create an organisation',
        description: 'The caller becomes its only member, as owner.',
        body: CreateOrganizationBody,
        consumes,
        response: { 201: OrganizationCreatedResponse, ...refusals, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const organization = await organizations.create(callerOf(request), request.body.name);
      reply.code(201).header('location', `/api/v1/organizations/${organization.id}`);
      return { data: absoluteOrganization(request, organization), status: 201 as const };
    },
  );

  app.get(
    '/organizations',
    {
      schema: {
        tags,
        summary: 'List the caller\'s organisations',
        querystring: OrganizationListQuery,
        response: { 200: OrganizationListResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { page = 1, per_page: perPage = 100 } = request.query;
      const list = await organizations.list(callerOf(request), { page, perPage });
      const items = list.items.map((item) => absoluteOrganization(request, item));
      return listEnvelope(request, { ...list, items }, { per_page: request.query.per_page });
    },
  );
  allowOnly(app, '/organizations', ['GET', 'POST']);

  app.get(
    '/organizations/:id',
    {
      schema: {
        tags,
        summary: 'An organisation',
        params: OrganizationIdParams,
        response: { 200: OrganizationResponse, ...refusals, ...commonErrorResponses },
      },
    },
    async (request) => {
      const organization = await organizations.show(callerOf(request), parseId(request.params.id));
      return { data: absoluteOrganization(request, organization), status: 200 as const };
    },
  );

  app.put(
    '/organizations/:id',
    {
      // A logo of 1 MiB fits in either body type (base64 and form encoding grow it).
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Change an organisation\'s name or brand',
        description: 'Admins and owners.',
        params: OrganizationIdParams,
        body: UpdateOrganizationBody,
        consumes,
        response: { 200: OrganizationResponse, ...refusals, ...commonErrorResponses },
      },
    },
    async (request) => {
      const organization = await organizations.update(callerOf(request), parseId(request.params.id), request.body);
      return { data: absoluteOrganization(request, organization), status: 200 as const };
    },
  );

  app.delete(
    '/organizations/:id',
    {
      schema: {
        tags,
        summary: 'Delete an organisation and everything it owns',
        description: 'Owners only; a personal organisation is deleted only with its account.',
        params: OrganizationIdParams,
        response: { 200: OrganizationDeletedResponse, ...refusals, ...commonErrorResponses },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      await organizations.remove(callerOf(request), id);
      return { id, object: 'organization' as const, deleted: true as const, status: 200 as const };
    },
  );
  allowOnly(app, '/organizations/:id', ['GET', 'PUT', 'DELETE']);
};
