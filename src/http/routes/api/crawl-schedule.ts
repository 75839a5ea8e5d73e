// PUT /api/v1/crawls/{id}: a crawl's schedule, set or taken off (docs/crawls.md, "Scheduled crawls").
// Its 405 for the path's other methods is the crawl routes' (crawls.ts), which lists PUT as allowed.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CrawlIdParams, CrawlResponse, UpdateCrawlBody } from '../../../schemas/crawls.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import { parseId } from '../../../schemas/parse-id.ts';

export const crawlScheduleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { crawlSchedules } = app.services;

  app.put(
    '/crawls/:id',
    {
      config: { action: 'start crawls' },
      schema: {
        tags: ['crawls'],
        summary: 'Change a crawl\'s schedule',
        description:
          'schedule: off, daily, weekly, monthly or a 5-field cron expression (UTC), from now; next_run_at says when. ' +
          'Each run starts a new crawl with the same settings and the schedule moves to it: off on the newest crawl of a series stops it.',
        params: CrawlIdParams,
        body: UpdateCrawlBody,
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        response: { 200: CrawlResponse, 404: { $ref: 'Error#' }, ...commonErrorResponses },
      },
    },
    async (request) => ({
      data: await crawlSchedules.update(request.organization.id, parseId(request.params.id), { schedule: request.body.schedule }),
      status: 200 as const,
    }),
  );
};
