// An empty body has no fields (docs/api.md, "Requests"): no body at all, or zero bytes sent as a form
// or as JSON, reads as {} and meets the route's own rules ("The url field is required."). Fastify
// would leave a missing body undefined (a type error on `body`) and refuse zero bytes of JSON as
// invalid JSON. A body with anything in it that is not a form or a JSON object still fails on `body`.
import type { FastifyInstance } from 'fastify';

const METHODS_WITH_BODIES = new Set(['POST', 'PUT']);

export function registerEmptyBodies(app: FastifyInstance): void {
  // Fastify's own JSON parser (prototype poisoning refused, as by default) for every body but the empty one.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text === '') return done(null, {});
    parseJson(request, text, done);
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && METHODS_WITH_BODIES.has(request.method) && request.routeOptions.schema?.body !== undefined) {
      request.body = {};
    }
  });
}
