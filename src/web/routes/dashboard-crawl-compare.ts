// /dashboard/crawls/{id}/compare?from=: a crawl compared with another of its URL (by default the
// previous done one), through the same service as GET /api/v1/crawls/{id}/diff. A crawl that has not
// finished, or has nothing earlier to compare with, gets the page saying so; a `from` refused gets the
// form again with the reason.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CrawlIdParams } from '../../schemas/crawls.ts';
import { CrawlDiffQuery } from '../../schemas/crawl-diff.ts';
import { parseId } from '../../schemas/parse-id.ts';
import { CrawlNotFinishedError } from '../../services/crawl-diff.service.ts';
import { ValidationError } from '../../services/errors.ts';
import { sendPage } from '../render.ts';
import { dashboardNav, requireSignIn, signedInAccount } from '../session.ts';
import { crawlComparePage, type CrawlComparePageOptions } from '../views/crawl-compare.ts';
import { dropEmptyQueryValues } from './list-query.ts';

export const dashboardCrawlCompareRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { crawls, crawlDiffs } = app.services;

  app.get(
    '/dashboard/crawls/:id/compare',
    { schema: { hide: true, params: CrawlIdParams, querystring: CrawlDiffQuery }, preValidation: dropEmptyQueryValues, preHandler: requireSignIn },
    async (request, reply) => {
      const accountId = signedInAccount(request).organization_id;
      const id = parseId(request.params.id);
      const from = request.query.from;
      const crawl = await crawls.show(accountId, id);
      const choices = await crawlDiffs.choices(accountId, id);
      const page = (status: number, shown: Pick<CrawlComparePageOptions, 'diff' | 'notice' | 'error'>) =>
        sendPage(reply, status, crawlComparePage({ nav: dashboardNav(request, reply, 'crawls'), crawl, choices, from, ...shown }));
      try {
        return page(200, { diff: await crawlDiffs.diff(accountId, id, from) });
      } catch (error) {
        if (error instanceof CrawlNotFinishedError) return page(409, { notice: 'This crawl has not finished yet: compare it once it is done.' });
        // Nothing asked for and nothing earlier: not an error of the request, just nothing to show yet.
        if (error instanceof ValidationError && from === undefined) {
          return page(200, { notice: 'There is no earlier finished crawl of this URL to compare with.' });
        }
        if (error instanceof ValidationError) return page(422, { error: error.message });
        throw error;
      }
    },
  );
};
