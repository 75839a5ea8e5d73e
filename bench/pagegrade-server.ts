// The real pagegrade server (src/server.ts, as `npm start` runs it) in a child process, configured
// for benchmarking: a known admin key, loopback pages allowed, no rate limit to speak of, no logs.
import { freePort, startService, type ProcessOptions, type ServiceProcess } from './processes.ts';

/** Only ever used against throwaway benchmark databases. */
export const BENCH_ADMIN_KEY = 'pg_benchmark-admin-key-not-a-secret';
/** PostgreSQL needs PAGEGRADE_SECRET_KEY to start; benchmark databases sign no real webhooks. */
const BENCH_SECRET_KEY = 'benchmark-secret-key-not-a-secret-at-all';

/** The server's settings (its environment) for a benchmark on `databaseUrl`. */
export function benchServerEnv(databaseUrl: string, port = 0): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    PAGEGRADE_ADMIN_KEY: BENCH_ADMIN_KEY,
    PAGEGRADE_SECRET_KEY: BENCH_SECRET_KEY,
    PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
    PAGEGRADE_RATE_LIMIT: '1000000000',
    LOG_LEVEL: 'silent',
  };
}

export async function startPagegrade(databaseUrl: string, options: ProcessOptions = {}): Promise<ServiceProcess> {
  const port = await freePort();
  return startService('src/server.ts', port, benchServerEnv(databaseUrl, port), '/health', options);
}
