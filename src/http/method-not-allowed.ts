// A known path asked with another method answers 405 with an Allow header (API.md).
import type { FastifyInstance } from 'fastify';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];

export function allowOnly(app: FastifyInstance, url: string, allowed: readonly Method[]): void {
  const others = METHODS.filter((method) => !allowed.includes(method));
  const allowHeader = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  app.route({
    method: others,
    url,
    schema: { hide: true },
    handler: async (_request, reply) =>
      reply.code(405).header('allow', allowHeader).send({ message: 'Method not allowed.', status: 405 }),
  });
}
