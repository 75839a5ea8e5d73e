// GET /api/v1/crawls/{id}/diff: what changed between two finished crawls (docs/crawls.md, "Comparing crawls").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CrawlIdParams } from '../../../schemas/crawls.ts';
import { CrawlDiffQuery, CrawlDiffResponse } from '../../../schemas/crawl-diff.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import { parseId } from '../../../schemas/parse-id.ts';
import { allowOnly } from '../../method-not-allowed.ts';

export const crawlDiffRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { crawlDiffs } = app.services;

  app.get(
    '/crawls/:id/diff',
    {
      schema: {
        tags: ['crawls'],
        summary: 'What changed between two crawls',
        description:
          'The site checks\' findings of {id} against those of `from` (new, fixed, persisting, not comparable), the scores, and the pages ' +
          'added, removed or answering another status. 409 while {id} has not finished; 422 on from when there is nothing to compare with.',
        params: CrawlIdParams,
        querystring: CrawlDiffQuery,
        response: { 200: CrawlDiffResponse, 404: { $ref: 'Error#' }, 409: { $ref: 'Error#' }, ...commonErrorResponses },
      },
    },
    async (request) => ({
      data: await crawlDiffs.diff(request.organization.id, parseId(request.params.id), request.query.from),
      status: 200 as const,
    }),
  );

  allowOnly(app, '/crawls/:id/diff', ['GET']);
};
