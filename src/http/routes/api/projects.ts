// /api/v1/projects: thin adapters over the project service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ProjectDeletedResponse, ProjectListApiQuery, ProjectListResponse, ProjectParams } from '../../../schemas/projects.ts';
import { commonErrorResponses, listOrCsvResponse } from '../../../schemas/common.ts';
import { csvStream, sendCsv } from '../../../csv/csv.ts';
import { PROJECT_CSV_COLUMNS } from '../../../csv/list-columns.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { allowOnly } from '../../method-not-allowed.ts';

const tags = ['projects'];

export const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { projects, lists } = app.services;

  app.get(
    '/projects',
    {
      schema: {
        tags,
        summary: 'List projects',
        description:
          'A project is a host the account has reports for; it exists while it has reports. format=csv answers every ' +
          'matching project as projects.csv instead of one page.',
        querystring: ProjectListApiQuery,
        response: {
          200: listOrCsvResponse(ProjectListResponse, `Every matching project: ${PROJECT_CSV_COLUMNS.map((column) => column.header).join(', ')}.`),
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filters = { search: q.search || undefined, sortBy: q.sort_by ?? 'created_at', sort: q.sort ?? 'desc' };
      if (q.format === 'csv') {
        return sendCsv(reply, 'projects.csv', await csvStream(PROJECT_CSV_COLUMNS, lists.projectRows(request.organization.id, filters)));
      }
      const query = { ...filters, page: q.page ?? 1, perPage: q.per_page ?? 100 };
      const linkQuery = { search: q.search, search_by: q.search_by, sort_by: q.sort_by, sort: q.sort, per_page: q.per_page };
      return listEnvelope(request, await lists.projects(request.organization.id, query), linkQuery);
    },
  );

  app.delete(
    '/projects/:project',
    {
      config: { action: 'delete projects' },
      schema: {
        tags,
        summary: 'Delete a project and all of its reports, in one transaction',
        params: ProjectParams,
        response: { 200: ProjectDeletedResponse, 404: { $ref: 'Error#' }, ...commonErrorResponses },
      },
    },
    async (request) => {
      const name = request.params.project;
      const reportsDeleted = await projects.remove(request.organization.id, name);
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
