// buildApp(config): the only way to make a server. The server entry, the CLI and every test use it,
// so tests run the same app users run.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { Config } from '../config.ts';
import { openDatabase, type AppDatabase } from '../db/open-database.ts';
import { createServices, type ServiceOptions, type Services } from '../services/index.ts';
import type { Analyzer } from '../analysis/analyze-url.ts';
import {
  registerErrorHandler,
  registerInputRefusals,
  registerShutdownResponses,
  frameworkErrorOptions,
  NOT_FOUND_BODY,
} from './errors.ts';
import { routeEveryMethod } from './method-not-allowed.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { apiRoutes } from './routes/api/index.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { checkRoutes } from './routes/api/checks.ts';
import { healthRoutes } from './routes/health.ts';
import { logRedactPaths, logSerializers } from './log-redaction.ts';
import { logDestination } from './log-destination.ts';
import { contentSecurityPolicy } from '../web/content-security-policy.ts';
import { webRoutes } from '../web/index.ts';
import { sendNotFoundPage } from '../web/render.ts';
import { createAttemptLimiter, createMemoryAttemptStore } from '../web/attempt-limiter.ts';
import { createRedisAttemptStore } from '../web/redis-attempt-store.ts';
import { registerRedis } from './plugins/redis.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { resolveSecretKey } from '../security/secret-key.ts';
import { proxyTrust } from './trust-proxy.ts';
import { registerEmptyBodies } from './empty-bodies.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: Config;
  }
}

const BODY_LIMIT_BYTES = 64 * 1024;

/** Wrong passwords for one report from one address before it must wait (brute force stays slow). */
const UNLOCK_LIMITS = { maxFailures: 5, windowMs: 15 * 60 * 1000 };

/** /api and everything under it answers JSON; every other path is the web side's. */
function isApiPath(url: string): boolean {
  const path = url.split('?')[0];
  return path === '/api' || path.startsWith('/api/');
}

export interface BuildOptions {
  /** Replace the analyzer (the CLI and the normal server never do; a test may wrap the real one). */
  analyzer?: Analyzer;
  /** Use an already open database instead of opening config.databaseUrl. */
  database?: AppDatabase;
  /** Job handlers beside the application's own (a test's, to watch this app run background jobs). */
  extraJobHandlers?: ServiceOptions['extraJobHandlers'];
  /** Replaces the browser made from config (a test's stand-in for render=1 and lab=1); null: none. */
  renderer?: ServiceOptions['renderer'];
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // First: without the key every process sharing the database needs, refuse to start at all.
  const secretKey = resolveSecretKey(config);
  const app = Fastify({
    logger:
      config.logLevel === false
        ? false
        : { level: config.logLevel, redact: logRedactPaths, serializers: logSerializers, stream: logDestination(process.stdout.isTTY === true) },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: proxyTrust(config.trustProxy),
    genReqId: () => randomUUID(),
    // A client-chosen request id would let one request impersonate another in the logs.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: false } },
    ...frameworkErrorOptions,
  });

  routeEveryMethod(app);
  const database =
    options.database ??
    (await openDatabase(config.databaseUrl, {
      sqliteCacheMb: config.sqliteCacheMb,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      queryTimeoutMs: config.dbQueryTimeoutMs,
    }));
  app.decorate('config', config);
  app.decorate(
    'services',
    createServices(database, config, {
      analyzer: options.analyzer,
      onCheckFailure: (checkId, error) => app.log.error({ err: error, checkId }, 'check failed; recorded as not applicable'),
      onJobError: (error, { message, kind, jobId }) => app.log.error({ err: error, kind, jobId }, message),
      extraJobHandlers: options.extraJobHandlers,
      renderer: options.renderer,
      secretKey: secretKey.key,
    }),
  );
  if (secretKey.notice) app.log.warn(secretKey.notice);
  app.addHook('onClose', async () => {
    // Jobs still running finish (and store what they made) before the database goes.
    await app.services.background.close();
    // After the jobs: a job that renders needs its browser until it ends.
    await app.services.rendering.close();
    if (!options.database) await database.close();
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await registerRedis(app, config.redisUrl);
  registerErrorHandler(app, BODY_LIMIT_BYTES);
  registerShutdownResponses(app);
  registerInputRefusals(app);
  app.setNotFoundHandler((request, reply) =>
    isApiPath(request.url) ? reply.code(404).send(NOT_FOUND_BODY) : sendNotFoundPage(reply),
  );

  registerSecurityHeaders(app, { contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy } });
  // Bodies are forms or JSON (docs/api.md, "Requests"); Fastify's default text/plain parser would let
  // other types in.
  app.removeContentTypeParser('text/plain');
  registerEmptyBodies(app);
  await app.register(formbody);
  await registerOpenApi(app);
  await app.register(healthRoutes);
  // Outside apiRoutes' scope: the check catalogue needs no API key.
  await app.register(checkRoutes, { prefix: '/api/v1' });
  await app.register(apiRoutes, { prefix: '/api/v1' });
  await app.register(mcpRoutes);
  await app.register(webRoutes, {
    access: app.services.reportAccess,
    sessions: app.services.webSessions,
    // With REDIS_URL every server process counts a report's wrong passwords together, as the API rate limit does.
    unlockAttempts: createAttemptLimiter(app.redis ? createRedisAttemptStore(app.redis) : createMemoryAttemptStore(), UNLOCK_LIMITS),
  });
  // The server runs background jobs itself unless PAGEGRADE_WORKERS=0 (then `pagegrade worker`
  // processes do, on Redis or on this database). Last, so an app that failed to build runs none.
  if (config.workers > 0) app.services.background.start(config.workers);
  return app;
}
