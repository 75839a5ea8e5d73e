// The real pagegrade server (src/server.ts, as `npm start` runs it) in a child process, configured
// for benchmarking: a known admin key, loopback pages allowed, no rate limit to speak of, no logs.
import { freePort, startService, type ProcessOptions, type ServiceProcess } from './processes.ts';

/** Only ever used against throwaway benchmark databases. */
export const BENCH_ADMIN_KEY = 'pg_benchmark-admin-key-not-a-secret';

/** `settings`: more environment for the server (e.g. PAGEGRADE_LIST_CACHE_MB=0). */
export async function startPagegrade(
  databaseUrl: string,
  options: ProcessOptions = {},
  settings: Record<string, string> = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    PAGEGRADE_ADMIN_KEY: BENCH_ADMIN_KEY,
    PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
    PAGEGRADE_RATE_LIMIT: '1000000000',
    LOG_LEVEL: 'silent',
    ...settings,
  };
  return startService('src/server.ts', port, env, '/health', options);
}
