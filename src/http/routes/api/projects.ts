// /api/v1/projects: thin adapters over the project service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ProjectDeletedResponse, ProjectListQuery, ProjectListResponse, ProjectParams } from '../../schemas/projects.ts';
import { commonErrorResponses } from '../../schemas/common.ts';
import { listEnvelopeJson } from '../../list-envelope.ts';
import { sendJsonText } from '../../send-json-text.ts';
import { allowOnly } from '../../method-not-allowed.ts';
import { listBodyKey, type KeptListBodies } from '../../kept-list-bodies.ts';

const tags = ['projects'];

export const projectRoutes: FastifyPluginAsyncTypebox<{ keptLists: KeptListBodies }> = async (app, { keptLists }) => {
  const projects = app.services.projects;

  app.get(
    '/projects',
    {
      schema: {
        tags,
        summary: 'List projects',
        description: 'A project is a host the account has reports for; it exists while it has reports.',
        querystring: ProjectListQuery,
        response: { 200: ProjectListResponse, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const options = {
        search: q.search || undefined,
        sortBy: q.sort_by ?? 'created_at',
        sort: q.sort ?? 'desc',
        page: q.page ?? 1,
        perPage: q.per_page ?? 100,
      };
      const linkQuery = { search: q.search, search_by: q.search_by, sort_by: q.sort_by, sort: q.sort, per_page: q.per_page };
      const body = await keptLists.get(listBodyKey(request, [options, linkQuery]), async () =>
        listEnvelopeJson(request, await projects.listJson(request.account.id, options), linkQuery),
      );
      return sendJsonText(reply, body);
    },
  );

  app.delete(
    '/projects/:project',
    {
      schema: {
        tags,
        summary: 'Delete a project and all of its reports, in one transaction',
        params: ProjectParams,
        response: { 200: ProjectDeletedResponse, 404: { $ref: 'Error#' }, ...commonErrorResponses },
      },
    },
    async (request) => {
      const name = request.params.project;
      const reportsDeleted = await projects.remove(request.account.id, name);
      return {
        project: name,
        object: 'project' as const,
        deleted: true as const,
        reports_deleted: reportsDeleted,
        status: 200 as const,
      };
    },
  );

  allowOnly(app, '/projects', ['GET']);
  allowOnly(app, '/projects/:project', ['DELETE']);
};
