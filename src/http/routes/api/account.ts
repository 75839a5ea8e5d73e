// /api/v1/account: who the key belongs to.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountResponse } from '../../../schemas/account.ts';
import { commonErrorResponses } from '../../../schemas/common.ts';
import { allowOnly } from '../../method-not-allowed.ts';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/account',
    { schema: { tags: ['account'], summary: 'The account of the API key', response: { 200: AccountResponse, ...commonErrorResponses } } },
    async (request) => {
      const { id, email, created_at } = request.account;
      const { prefix, name, scope, organization } = request.apiKey;
      return { data: { id, email, created_at, key: { prefix, name, scope, organization } }, status: 200 as const };
    },
  );
  allowOnly(app, '/account', ['GET']);
};
