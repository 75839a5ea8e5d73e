// GET /health: no auth; 200 when the database answers, 503 otherwise, and promptly: a load balancer
// asking a server whose database stopped answering must not wait as long as the query timeout.
import type { FastifyInstance } from 'fastify';
import { allowOnly } from '../method-not-allowed.ts';

/** Longer than a loaded database takes for `select 1`, shorter than load balancers' checks wait. */
const HEALTH_TIMEOUT_MS = 2_000;

function withinHealthTimeout(ping: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS);
  });
  return Promise.race([ping, late]).finally(() => clearTimeout(timer));
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  allowOnly(app, '/health', ['GET']);
  app.get('/health', { schema: { hide: true } }, async (request, reply) => {
    try {
      await withinHealthTimeout(app.services.health.ping());
      return { status: 'ok' };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database did not answer');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
