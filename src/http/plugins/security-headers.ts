// Helmet's security headers on every response. @fastify/helmet builds helmet's middleware anew for
// every request (about a tenth of a list request's time); the headers depend only on the options, so
// they are made once here, by running helmet against a response that records what it sets.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // Helmet's middleware is synchronous; if a version ever were not, the headers here would be partial.
  if (!finished) throw new Error('helmet did not finish synchronously; security headers unknown');
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}
