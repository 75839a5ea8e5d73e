// `serve`: run the HTTP server (same as npm start).
import { loadConfig } from '../../config.ts';
import { UsageError, type Command, type ParsedArgs } from '../command.ts';
import { startServer } from '../../server.ts';

const MAX_PORT = 65_535;

/** --port and --host checked here, so a bad one is a usage error naming the option, not the setting. */
function listenOptions(args: ParsedArgs): { port?: string; host?: string } {
  const { port, host } = args.values;
  if (typeof port === 'string' && (!/^\d+$/.test(port) || Number(port) > MAX_PORT)) {
    throw new UsageError(`--port must be a whole number from 0 to ${MAX_PORT}; got "${port}".`);
  }
  if (host === '') throw new UsageError('--host needs an address, e.g. 127.0.0.1 or 0.0.0.0.');
  return { port: typeof port === 'string' ? port : undefined, host: typeof host === 'string' ? host : undefined };
}

export const serve: Command = {
  name: 'serve',
  summary: 'Run the HTTP API server (settings from the environment: PORT, HOST, DATABASE_URL, ...).',
  usage: 'serve [--port <n>] [--host <address>]',
  options: { port: { type: 'string' }, host: { type: 'string' } },
  async run(args, io) {
    const { port, host } = listenOptions(args);
    const env = { ...io.env };
    if (port !== undefined) env.PORT = port;
    if (host !== undefined) env.HOST = host;
    await startServer(loadConfig(env));
    // Keep running until a signal closes the server.
    return new Promise<number>(() => {});
  },
};
