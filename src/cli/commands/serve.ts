// `serve`: run the HTTP server (same as npm start).
import { loadConfig } from '../../config.ts';
import type { Command } from '../command.ts';
import { startServer } from '../../server.ts';

export const serve: Command = {
  name: 'serve',
  summary: 'Run the HTTP API server (settings from the environment: PORT, HOST, DATABASE_URL, ...).',
  usage: 'serve [--port <n>] [--host <address>]',
  options: { port: { type: 'string' }, host: { type: 'string' } },
  async run(args, io) {
    const env = { ...io.env };
    if (typeof args.values.port === 'string') env.PORT = args.values.port;
    if (typeof args.values.host === 'string') env.HOST = args.values.host;
    await startServer(loadConfig(env));
    // Keep running until a signal closes the server.
    return new Promise<number>(() => {});
  },
};
