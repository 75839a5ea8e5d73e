// The OpenAPI 3.1 document, generated from the same schemas that validate requests, served at
// /api/v1/openapi.json, and human-readable docs at /docs (assets served locally, no CDN).
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBody, UnauthenticatedBody, ValidationErrorBody } from '../../schemas/common.ts';
import { nameTitledSchemas } from './openapi-names.ts';

const description = `pagegrade fetches a page, runs about fifty SEO, performance, security and markup checks,
scores it 0-100 and keeps the report. Compatible with the phpRank SEO-reports API.

Every request under /api/v1 but GET /api/v1/checks carries \`Authorization: Bearer <api key>\`. Bodies are
application/x-www-form-urlencoded (or JSON), at most 64 KiB; an empty body (none, or zero bytes of either) has no
fields. GET /api/v1/checks says what each check of a report's \`results\` means and how to fix it. Errors are
\`{"message", "status"}\`; validation errors add \`errors\` by field, and a 401 adds \`hint\`, how to
authenticate. Another account's report is a 404, like an unknown one. Each API key may make
PAGEGRADE_RATE_LIMIT requests per minute (default 120); \`X-RateLimit-Limit\` and \`X-RateLimit-Remaining\`
come with every authenticated response and \`Retry-After\` with a 429. Times are ISO-8601 UTC with
milliseconds.`;

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBody);
  app.addSchema(UnauthenticatedBody);
  app.addSchema(ValidationErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'pagegrade API', version: '1.0.0', description },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key.' } } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
    transformObject: (documents) => ('openapiObject' in documents ? nameTitledSchemas(documents.openapiObject as Record<string, unknown>) : documents.swaggerObject),
  });
  // BaseLayout: without swagger-ui's top bar, whose logo carries an inline <style> that the page's own
  // Content-Security-Policy (style-src 'self') refuses; the bar only links to swagger.io anyway.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, uiConfig: { layout: 'BaseLayout' } });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
