// buildApp(config): the only way to make a server. The server entry, the CLI and every test use it,
// so tests run the same app users run.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import type { Config } from '../config.ts';
import { openDatabase, type AppDatabase } from '../db/open-database.ts';
import { createServices, type Services } from '../services/index.ts';
import type { Analyzer } from '../analysis/analyze-url.ts';
import { registerErrorHandler, NOT_FOUND_BODY } from './errors.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { apiRoutes } from './routes/api/index.ts';
import { healthRoutes } from './routes/health.ts';
import { logRedactPaths } from './log-redaction.ts';
import { registerRedis } from './plugins/redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: Config;
  }
}

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface BuildOptions {
  /** Replace the analyser (the CLI and the normal server never do; a test may wrap the real one). */
  analyzer?: Analyzer;
  /** Use an already open database instead of opening config.databaseUrl. */
  database?: AppDatabase;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === false ? false : { level: config.logLevel, redact: logRedactPaths },
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    // A client-chosen request id would let one request impersonate another in the logs.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: false } },
  });

  const database = options.database ?? (await openDatabase(config.databaseUrl));
  app.decorate('config', config);
  app.decorate(
    'services',
    createServices(database, config, {
      analyzer: options.analyzer,
      onCheckFailure: (checkId, error) => app.log.error({ err: error, checkId }, 'check failed; recorded as not applicable'),
    }),
  );
  app.addHook('onClose', async () => {
    if (!options.database) await database.close();
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await registerRedis(app, config.redisUrl);
  registerErrorHandler(app, BODY_LIMIT_BYTES);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(NOT_FOUND_BODY));

  await app.register(helmet, { global: true });
  // Bodies are forms or JSON (API.md); Fastify's default text/plain parser would let other types in.
  app.removeContentTypeParser('text/plain');
  await app.register(formbody);
  await registerOpenApi(app);
  await app.register(healthRoutes);
  await app.register(apiRoutes, { prefix: '/api/v1' });
  return app;
}
