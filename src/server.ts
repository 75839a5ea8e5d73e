// The server entry (`npm start`, `pagegrade serve`): build the app, make sure an admin exists,
// listen, and close gracefully on SIGTERM/SIGINT.
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from './config.ts';
import { buildApp } from './http/app.ts';

/**
 * How long in-flight requests get to finish after SIGTERM before the process exits anyway (code 1).
 * The longest request is an analysis: the page's fetch deadline, then at worst a second one for the
 * origin facts of a redirect target's origin, plus a margin for the checks and the database write.
 */
function shutdownGraceMs(config: Config): number {
  return 2 * config.fetchTimeoutMs + 5_000;
}

export async function startServer(config: Config): Promise<FastifyInstance> {
  const app = await buildApp(config);
  const bootstrap = await app.services.accounts.bootstrapAdmin(config.adminKey);
  if (bootstrap.created) {
    // Shown once, on the terminal, never through the logger.
    process.stdout.write(
      `\nCreated the first account (${bootstrap.created.email}). Its API key, shown only this once:\n\n` +
        `    ${bootstrap.created.apiKey}\n\n` +
        `Use it as "Authorization: Bearer <key>". Make more with: npx pagegrade keys create --email ${bootstrap.created.email}\n\n`,
    );
  }
  await app.listen({ port: config.port, host: config.host });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, shutdownGraceMs(config));
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error) => {
        app.log.error({ err: error }, 'error while closing');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return app;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  Promise.resolve()
    .then(() => startServer(loadConfig()))
    .catch((error) => {
      process.stderr.write(`pagegrade could not start: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
