// A known path asked with another method answers 405 with an Allow header (docs/api.md), whatever the
// method: Fastify routes only the methods it knows, so the rest Node's parser accepts (PROPFIND,
// LOCK, ...) are made known first, or they would fall through to a 404.
import { METHODS } from 'node:http';
import type { FastifyInstance } from 'fastify';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** Lets routes use every method Node parses. CONNECT never reaches a route (Node's 'connect' event). */
export function routeEveryMethod(app: FastifyInstance): void {
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
}

export function allowOnly(app: FastifyInstance, url: string, allowed: readonly Method[]): void {
  // HEAD comes with GET (Fastify adds it); without GET it is one more method to refuse.
  const others = app.supportedMethods.filter(
    (method) => !(allowed as readonly string[]).includes(method) && !(method === 'HEAD' && allowed.includes('GET')) && method !== 'CONNECT',
  );
  const allowHeader = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  app.route({
    method: others,
    url,
    schema: { hide: true },
    handler: async (_request, reply) =>
      reply.code(405).header('allow', allowHeader).send({ message: 'Method not allowed.', status: 405 }),
  });
}
