// GET /api/v1/checks: the check catalogue, without auth (it holds nothing of any account), so a client
// can show what each id of a report's `results` or a crawl's issues means and how to fix it.
import type { FastifyInstance } from 'fastify';
import { checkCatalogue } from '../../../schemas/check-catalogue.ts';
import { CheckDescription, CheckListResponse } from '../../../schemas/checks.ts';
import { allowOnly } from '../../method-not-allowed.ts';

export async function checkRoutes(app: FastifyInstance): Promise<void> {
  app.addSchema(CheckDescription);
  app.addSchema(CheckListResponse);
  const body = { data: checkCatalogue(), status: 200 as const };
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
