// /api/v1/reports/{id}/runs and /diff: thin adapters over the runs list, the run service and the diff.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ReportIdParams } from '../../../schemas/reports.ts';
import { DiffQuery, RunListQuery, RunListResponse, RunParams, RunDiffResponse, RunResponse } from '../../../schemas/runs.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import { parseId } from '../../../schemas/parse-id.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { allowOnly } from '../../method-not-allowed.ts';

const tags = ['runs'];
const notFound = { 404: { $ref: 'Error#' } };
/** Written with JSON.stringify, as a full report is: check values are typed only for the document. */
const serializeAsIs = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

export const runRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { lists, runs } = app.services;

  app.get(
    '/reports/:id/runs',
    {
      schema: {
        tags,
        summary: 'List a report\'s runs',
        description: 'Every successful analysis is a run; the newest PAGEGRADE_RUNS_KEPT are kept. Newest first.',
        params: ReportIdParams,
        querystring: RunListQuery,
        response: { 200: RunListResponse, ...notFound, ...commonErrorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await lists.runs(request.organization.id, parseId(request.params.id), { page: q.page ?? 1, perPage: q.per_page ?? 100 });
      return listEnvelope(request, page, { per_page: q.per_page });
    },
  );

  app.get(
    '/reports/:id/runs/:run',
    {
      schema: {
        tags,
        summary: 'Show one run with its results',
        params: RunParams,
        response: { 200: RunResponse, ...notFound, ...commonErrorResponses },
      },
      ...serializeAsIs,
    },
    async (request) => {
      const run = await runs.show(request.organization.id, parseId(request.params.id), parseId(request.params.run));
      return { data: run, status: 200 as const };
    },
  );

  app.get(
    '/reports/:id/diff',
    {
      schema: {
        tags,
        summary: 'What changed between two runs',
        description: '`to` defaults to the latest run and `from` to the run before it. 422 on from when there is no older run.',
        params: ReportIdParams,
        querystring: DiffQuery,
        response: { 200: RunDiffResponse, ...notFound, ...commonErrorResponses },
      },
      ...serializeAsIs,
    },
    async (request) => {
      const diff = await runs.diff(request.organization.id, parseId(request.params.id), request.query);
      return { data: diff, status: 200 as const };
    },
  );

  allowOnly(app, '/reports/:id/runs', ['GET']);
  allowOnly(app, '/reports/:id/runs/:run', ['GET']);
  allowOnly(app, '/reports/:id/diff', ['GET']);
};
