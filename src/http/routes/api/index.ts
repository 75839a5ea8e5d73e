// The authenticated /api/v1 scope: auth first, then the per-key rate limit, then the resources.
import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { registerApiKeyAuth } from '../../plugins/api-key-auth.ts';
import { reportRoutes } from './reports.ts';
import { runRoutes } from './runs.ts';
import { projectRoutes } from './projects.ts';
import { accountRoutes } from './account.ts';
import { webhookRoutes } from './webhooks.ts';
import { crawlRoutes } from './crawls.ts';
import { crawlScheduleRoutes } from './crawl-schedule.ts';
import { crawlDiffRoutes } from './crawl-diff.ts';
import { organizationRoutes } from './organizations.ts';
import { memberRoutes } from './members.ts';
import { keyRoutes } from './keys.ts';
import { shareRoutes } from './shares.ts';

/** The per-key rate limit (PAGEGRADE_RATE_LIMIT_PER_MINUTE), for a scope that authenticates with registerApiKeyAuth. */
export async function registerKeyRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    // After authentication (onRequest) and before the body is read, so an over-limit key costs little.
    hook: 'preParsing',
    max: app.config.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `key:${request.apiKeyHash}`,
    // With REDIS_URL every server process shares one count per key; otherwise each counts alone.
    ...(app.redis ? { redis: app.redis, nameSpace: 'pagegrade-rate-limit:' } : {}),
    // A Redis outage must not lock every client out: requests pass uncounted and the error is logged.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });
}

export async function apiRoutes(app: FastifyInstance): Promise<void> {
  registerApiKeyAuth(app);
  await registerKeyRateLimit(app);
  await app.register(reportRoutes);
  await app.register(runRoutes);
  await app.register(projectRoutes);
  await app.register(accountRoutes);
  await app.register(webhookRoutes);
  await app.register(crawlRoutes);
  await app.register(crawlScheduleRoutes);
  await app.register(crawlDiffRoutes);
  await app.register(organizationRoutes);
  await app.register(memberRoutes);
  await app.register(keyRoutes);
  await app.register(shareRoutes);
}
