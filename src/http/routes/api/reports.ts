// /api/v1/reports: thin adapters over the report service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateReportBody,
  ReportCreateQueuedResponse,
  ReportCreatedResponse,
  ReportDeletedResponse,
  ReportIdParams,
  ReportListApiQuery,
  ReportListResponse,
  ReportQueuedResponse,
  ReportResponse,
  UpdateReportBody,
  reportListFilters,
} from '../../../schemas/reports.ts';
import { commonErrorResponses, listOrCsvResponse } from '../../../schemas/common.ts';
import { csvStream, sendCsv } from '../../../csv/csv.ts';
import { REPORT_CSV_COLUMNS } from '../../../csv/list-columns.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { parseId } from '../../../schemas/parse-id.ts';
import { allowOnly } from '../../method-not-allowed.ts';
import type { LabProfileName } from '../../../lab/lab-types.ts';

const tags = ['reports'];
const notFound = { 404: { $ref: 'Error#' } };
/** 409: results=1 while the report is being analysed; 503: the background queue cannot take the job. */
const analysisErrors = { 409: { $ref: 'Error#' }, 503: { $ref: 'Error#' } };
/** Bodies are forms (as phpRank's clients send them) or JSON; the OpenAPI document lists both. */
const consumes = ['application/x-www-form-urlencoded', 'application/json'];
/**
 * A full report is written with JSON.stringify: its response schema types every check's value for the
 * OpenAPI document, and a schema-compiled serializer would drop anything it did not foresee.
 */
const serializeReport = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

/** lab=1 asks for a lab audit under lab_profile (mobile by default); lab_profile alone asks for none. */
function labAsked(body: { lab?: 0 | 1; lab_profile?: LabProfileName }): LabProfileName | undefined {
  return body.lab === 1 ? (body.lab_profile ?? 'mobile') : undefined;
}

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { reports, lists } = app.services;

  app.get(
    '/reports',
    {
      schema: {
        tags,
        summary: 'List reports',
        description:
          'Only the caller\'s reports. Every sort breaks ties by id in the same direction. format=csv answers every ' +
          'matching report as reports.csv instead of one page.',
        querystring: ReportListApiQuery,
        response: {
          200: listOrCsvResponse(ReportListResponse, `Every matching report: ${REPORT_CSV_COLUMNS.map((column) => column.header).join(', ')}.`),
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filters = reportListFilters(q);
      if (q.format === 'csv') {
        return sendCsv(reply, 'reports.csv', await csvStream(REPORT_CSV_COLUMNS, lists.reportRows(request.organization.id, filters)));
      }
      const query = { ...filters, page: q.page ?? 1, perPage: q.per_page ?? 100 };
      const linkQuery = {
        search: q.search,
        search_by: q.search_by,
        project: q.project,
        result: q.result,
        state: q.state,
        sort_by: q.sort_by,
        sort: q.sort,
        per_page: q.per_page,
      };
      return listEnvelope(request, await lists.reports(request.organization.id, query), linkQuery);
    },
  );

  app.get(
    '/reports/:id',
    {
      schema: {
        tags,
        summary: 'Show a report with its results',
        params: ReportIdParams,
        response: { 200: ReportResponse, ...notFound, ...commonErrorResponses },
      },
      ...serializeReport,
    },
    async (request) => {
      const report = await reports.show(request.organization.id, parseId(request.params.id));
      return { data: report, status: 200 as const };
    },
  );

  app.post(
    '/reports',
    {
      config: { action: 'create reports' },
      schema: {
        tags,
        summary: 'Create a report',
        description:
          'Fetches and analyses the page before answering. A page that cannot be fetched as HTML is a 422 on url ' +
          'and nothing is stored; an HTTP error status is an SEO finding and the report is created. With async=1 ' +
          'the report is stored at once (202, state queued) and analysed in the background; a page that cannot ' +
          'be fetched then leaves it failed, with last_error. A URL the account already has a report of makes a new ' +
          'report too; duplicate_of names the newest earlier one.',
        body: CreateReportBody,
        consumes,
        response: { 201: ReportCreatedResponse, 202: ReportCreateQueuedResponse, ...analysisErrors, ...commonErrorResponses },
      },
      ...serializeReport,
    },
    async (request, reply) => {
      const body = request.body;
      const background = body.async === 1;
      const report = await reports.create(request.organization.id, {
        url: body.url,
        privacy: body.privacy ?? 0,
        password: body.password,
        background,
        schedule: body.schedule,
        render: body.render === 1,
        lab: labAsked(body),
      });
      const status = background ? (202 as const) : (201 as const);
      reply.code(status).header('location', `/api/v1/reports/${report.id}`);
      return { data: report, status };
    },
  );

  app.put(
    '/reports/:id',
    {
      config: { action: 'change reports' },
      schema: {
        tags,
        summary: 'Change privacy or regenerate a report',
        description:
          'results=1 analyses the url again; if the fetch fails the report is left exactly as it was (422). ' +
          'With async=1 as well the analysis is queued (202); 409 while the report is already being analysed.',
        params: ReportIdParams,
        body: UpdateReportBody,
        consumes,
        response: { 200: ReportResponse, 202: ReportQueuedResponse, ...notFound, ...analysisErrors, ...commonErrorResponses },
      },
      ...serializeReport,
    },
    async (request, reply) => {
      const body = request.body;
      const regenerate = body.results === 1;
      const background = regenerate && body.async === 1;
      const report = await reports.update(request.organization.id, parseId(request.params.id), {
        privacy: body.privacy,
        password: body.password,
        regenerate,
        background,
        schedule: body.schedule,
        render: body.render === 1,
        lab: labAsked(body),
      });
      if (!background) return { data: report, status: 200 as const };
      reply.code(202).header('location', `/api/v1/reports/${report.id}`);
      return { data: report, status: 202 as const };
    },
  );

  app.delete(
    '/reports/:id',
    {
      config: { action: 'delete reports' },
      schema: {
        tags,
        summary: 'Delete a report',
        params: ReportIdParams,
        response: { 200: ReportDeletedResponse, ...notFound, ...commonErrorResponses },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      await reports.remove(request.organization.id, id);
      return { id, object: 'report' as const, deleted: true as const, status: 200 as const };
    },
  );

  allowOnly(app, '/reports', ['GET', 'POST']);
  allowOnly(app, '/reports/:id', ['GET', 'PUT', 'DELETE']);
};
