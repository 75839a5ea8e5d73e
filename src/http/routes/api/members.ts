// /api/v1/organizations/{id}/members: thin adapters over the member service (docs/organisations.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddMemberBody,
  MemberAddedResponse,
  MemberDeletedResponse,
  MemberListQuery,
  MemberListResponse,
  MemberParams,
  MemberResponse,
  UpdateMemberBody,
} from '../../../schemas/members.ts';
import { OrganizationIdParams } from '../../../schemas/organizations.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import { parseId } from '../../../schemas/parse-id.ts';
import { callerOf } from '../../plugins/api-key-auth.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { allowOnly } from '../../method-not-allowed.ts';

const tags = ['organizations'];
const refusals = { 403: { $ref: 'Error#' }, 404: { $ref: 'Error#' } };
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { members } = app.services;

  app.get(
    '/organizations/:id/members',
    {
      schema: {
        tags,
        summary: 'List an organisation\'s members',
        description: 'Admins and owners.',
        params: OrganizationIdParams,
        querystring: MemberListQuery,
        response: { 200: MemberListResponse, ...refusals, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { page = 1, per_page: perPage = 100 } = request.query;
      const list = await members.list(callerOf(request), parseId(request.params.id), { page, perPage });
      return listEnvelope(request, list, { per_page: request.query.per_page });
    },
  );

  app.post(
    '/organizations/:id/members',
    {
      schema: {
        tags,
        summary: 'Add a member',
        description: 'Admins and owners; only an owner adds an owner. An e-mail with no account gets one, and its first key once.',
        params: OrganizationIdParams,
        body: AddMemberBody,
        consumes,
        response: { 201: MemberAddedResponse, ...refusals, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const organizationId = parseId(request.params.id);
      const { member, apiKey } = await members.add(callerOf(request), organizationId, request.body);
      reply.code(201).header('location', `/api/v1/organizations/${organizationId}/members/${member.user_id}`);
      return { data: apiKey === null ? member : { ...member, api_key: apiKey }, status: 201 as const };
    },
  );
  allowOnly(app, '/organizations/:id/members', ['GET', 'POST']);

  app.put(
    '/organizations/:id/members/:user_id',
    {
      schema: {
        tags,
        summary: 'Change a member\'s role',
        description: 'Admins and owners; only an owner changes an owner or makes one.',
        params: MemberParams,
        body: UpdateMemberBody,
        consumes,
        response: { 200: MemberResponse, ...refusals, ...commonErrorResponses },
      },
    },
    async (request) => {
      const member = await members.update(callerOf(request), parseId(request.params.id), parseId(request.params.user_id), request.body);
      return { data: member, status: 200 as const };
    },
  );

  app.delete(
    '/organizations/:id/members/:user_id',
    {
      schema: {
        tags,
        summary: 'Remove a member (or leave)',
        description: 'Admins and owners remove members, only an owner removes an owner; any member may remove themselves.',
        params: MemberParams,
        response: { 200: MemberDeletedResponse, ...refusals, ...commonErrorResponses },
      },
    },
    async (request) => {
      const userId = parseId(request.params.user_id);
      await members.remove(callerOf(request), parseId(request.params.id), userId);
      return { user_id: userId, object: 'member' as const, deleted: true as const, status: 200 as const };
    },
  );
  allowOnly(app, '/organizations/:id/members/:user_id', ['PUT', 'DELETE']);
};
