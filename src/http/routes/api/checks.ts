// GET /api/v1/checks: the check catalogue, without auth (it holds nothing of any account), so a client
// can show what each id of a report's `results` or a crawl's issues means and how to fix it.
import type { FastifyInstance } from 'fastify';
import { allChecks } from '../../../checks/index.ts';
import { siteChecks } from '../../../crawl/site-checks/index.ts';
import { WEIGHTS } from '../../../scoring/score.ts';
import { CheckDescription, CheckListResponse } from '../../../schemas/checks.ts';
import { allowOnly } from '../../method-not-allowed.ts';

/** Page checks then site checks in the API's shape; they never change while the process runs, so this is made once. */
function catalogue() {
  const data = [...allChecks, ...siteChecks].map((check) => ({
    id: check.id,
    category: check.category,
    importance: check.importance,
    points: WEIGHTS[check.importance],
    title: check.title,
    failure_title: check.failureTitle,
    description: check.description,
    how_to_fix: check.howToFix,
    ...('catalogue' in check && check.catalogue),
  }));
  return { data, status: 200 as const };
}

export async function checkRoutes(app: FastifyInstance): Promise<void> {
  app.addSchema(CheckDescription);
  app.addSchema(CheckListResponse);
  const body = catalogue();
  app.get(
    '/checks',
    {
      schema: {
        tags: ['checks'],
        summary: 'List every check with what it means and how to fix it',
        description: 'No API key needed. Each `id` is a key of a report\'s `results`; site checks (category `site`) belong to crawls.',
        security: [],
        // By reference, so the OpenAPI document names the response (CheckList) rather than inlining it.
        response: { 200: { $ref: 'CheckList#' } },
      },
    },
    async () => body,
  );
  allowOnly(app, '/checks', ['GET']);
}
