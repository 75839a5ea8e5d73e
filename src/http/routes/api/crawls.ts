// /api/v1/crawls: thin adapters over the crawl service and its lists (docs/api.md, "Site audits (crawls)").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CrawlDeletedResponse,
  CrawlIdParams,
  CrawlIssuesQuery,
  CrawlIssuesResponse,
  CrawlListQuery,
  CrawlListResponse,
  CrawlPageListQuery,
  CrawlPageListResponse,
  CrawlQueuedResponse,
  CrawlResponse,
  StartCrawlBody,
} from '../../../schemas/crawls.ts';
import { commonErrorResponses, listOrCsvResponse } from '../../../schemas/common.ts';
import { csvStream, sendCsv } from '../../../csv/csv.ts';
import { CRAWL_ISSUE_CSV_COLUMNS, CRAWL_PAGE_CSV_COLUMNS, crawlIssueCsvRows } from '../../../csv/crawl-columns.ts';
import { parseId } from '../../../schemas/parse-id.ts';
import { listEnvelope } from '../../list-envelope.ts';
import { allowOnly } from '../../method-not-allowed.ts';

const tags = ['crawls'];
const notFound = { 404: { $ref: 'Error#' } };
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

export const crawlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { crawls, lists } = app.services;

  app.post(
    '/crawls',
    {
      config: { action: 'start crawls' },
      schema: {
        tags,
        summary: 'Start a site audit',
        description:
          'Stores the crawl and queues it (202). Every HTML page it reaches becomes a run of a report in the project. ' +
          'An account with PAGEGRADE_CRAWLS_PER_ACCOUNT crawls queued or running is answered 429 with Retry-After, nothing stored.',
        body: StartCrawlBody,
        consumes,
        response: { 202: CrawlQueuedResponse, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const crawl = await crawls.start(request.organization.id, {
        url: body.url,
        maxPages: body.max_pages,
        maxDepth: body.max_depth,
        sitemap: body.sitemap === undefined ? undefined : body.sitemap === 1,
        privacy: body.privacy,
        render: body.render === 1,
        external: body.external === undefined ? undefined : body.external === 1,
        include: body.include,
        exclude: body.exclude,
        stripParams: body.strip_params,
        // A form may repeat the field: its lines together.
        headers: Array.isArray(body.headers) ? body.headers.join('\n') : body.headers,
        userAgent: body.user_agent,
        urls: body.urls,
        schedule: body.schedule,
        lab: body.lab === 1,
        labPages: body.lab_pages,
        labProfile: body.lab_profile,
      });
      reply.code(202).header('location', `/api/v1/crawls/${crawl.id}`);
      return { data: crawl, status: 202 as const };
    },
  );

  app.get(
    '/crawls',
    {
      schema: { tags, summary: 'List crawls', querystring: CrawlListQuery, response: { 200: CrawlListResponse, ...commonErrorResponses } },
    },
    async (request) => {
      const { project, state, sort_by: sortBy = 'id', sort = 'desc', page = 1, per_page: perPage = 100 } = request.query;
      const result = await lists.crawls(request.organization.id, { project, state, sortBy, sort, page, perPage });
      return listEnvelope(request, result, { project, state, sort_by: request.query.sort_by, sort: request.query.sort, per_page: request.query.per_page });
    },
  );

  app.get(
    '/crawls/:id',
    {
      schema: { tags, summary: 'A crawl', params: CrawlIdParams, response: { 200: CrawlResponse, ...notFound, ...commonErrorResponses } },
    },
    async (request) => ({ data: await crawls.show(request.organization.id, parseId(request.params.id)), status: 200 as const }),
  );

  app.delete(
    '/crawls/:id',
    {
      config: { action: 'delete crawls' },
      schema: {
        tags,
        summary: 'Cancel and delete a crawl',
        description: 'A queued or running crawl is cancelled first (crawl.completed, state cancelled). The reports it made stay.',
        params: CrawlIdParams,
        response: { 200: CrawlDeletedResponse, ...notFound, ...commonErrorResponses },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      await crawls.remove(request.organization.id, id);
      return { id, object: 'crawl' as const, deleted: true as const, status: 200 as const };
    },
  );

  app.get(
    '/crawls/:id/pages',
    {
      schema: {
        tags,
        summary: 'The URLs a crawl visited, or found and never fetched',
        description: 'state=unvisited lists the URLs found and never fetched, each with its reason. format=csv answers every matching URL as pages.csv instead of one page.',
        params: CrawlIdParams,
        querystring: CrawlPageListQuery,
        response: {
          200: listOrCsvResponse(CrawlPageListResponse, `Every matching page: ${CRAWL_PAGE_CSV_COLUMNS.map((column) => column.header).join(', ')}.`),
          ...notFound,
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { state, scope, status, result, sort_by: sortBy = 'url', sort = 'asc', page = 1, per_page: perPage = 100 } = request.query;
      if (request.query.format === 'csv') {
        const rows = lists.crawlPageRows(request.organization.id, parseId(request.params.id), { state, scope, status, result, sortBy, sort });
        return sendCsv(reply, 'pages.csv', await csvStream(CRAWL_PAGE_CSV_COLUMNS, rows));
      }
      const pages = await lists.crawlPages(request.organization.id, parseId(request.params.id), { state, scope, status, result, sortBy, sort, page, perPage });
      const { sort_by, per_page } = request.query;
      return listEnvelope(request, pages, { state, scope, status, result, sort_by, sort: request.query.sort, per_page });
    },
  );

  app.get(
    '/crawls/:id/issues',
    {
      schema: {
        tags,
        summary: 'A crawl\'s site issues',
        description: 'format=csv answers them as issues.csv, each issue\'s items as one JSON cell (rich_result_errors: a row per item, its items cell that item alone).',
        params: CrawlIdParams,
        querystring: CrawlIssuesQuery,
        response: {
          200: listOrCsvResponse(CrawlIssuesResponse, `Every issue: ${CRAWL_ISSUE_CSV_COLUMNS.map((column) => column.header).join(', ')}.`),
          ...notFound,
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const issues = await crawls.issues(request.organization.id, parseId(request.params.id));
      if (request.query.format === 'csv') return sendCsv(reply, 'issues.csv', await csvStream(CRAWL_ISSUE_CSV_COLUMNS, crawlIssueCsvRows(issues)));
      return { data: issues, status: 200 as const };
    },
  );

  allowOnly(app, '/crawls', ['GET', 'POST']);
  allowOnly(app, '/crawls/:id', ['GET', 'PUT', 'DELETE']);
  allowOnly(app, '/crawls/:id/pages', ['GET']);
  allowOnly(app, '/crawls/:id/issues', ['GET']);
};
