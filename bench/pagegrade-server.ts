// The real pagegrade server (dist/server.js, the build, as `npm start` runs it) in a child process,
// configured for benchmarking: a known admin key, loopback pages allowed, no rate limit to speak of,
// no logs; and `pagegrade worker` processes (bin/pagegrade.js) beside it, with the same settings.
// bench/run.ts builds first when dist/ is older than src/, so what is measured is the code of src/.
import { freePort, startBackground, startService, type ChildService, type ProcessOptions, type ServiceProcess } from './processes.ts';

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
    // Empty is unset: a REDIS_URL in the caller's environment would put the rate limit and the queue
    // on Redis for every benchmark. The queue benchmark sets it where it means to.
    REDIS_URL: '',
    PAGEGRADE_ADMIN_KEY: BENCH_ADMIN_KEY,
    PAGEGRADE_SECRET_KEY: BENCH_SECRET_KEY,
    PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
    PAGEGRADE_RATE_LIMIT: '1000000000',
    LOG_LEVEL: 'silent',
  };
}

/** `extraEnv`: settings beside (or over) benchServerEnv's, e.g. the queue's. */
export async function startPagegrade(
  databaseUrl: string,
  options: ProcessOptions = {},
  extraEnv: Record<string, string> = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  return startService('dist/server.js', port, { ...benchServerEnv(databaseUrl, port), ...extraEnv }, '/health', options);
}

/** `pagegrade worker --concurrency <n>` on the same settings as a server; resolves once it takes jobs. */
export function startPagegradeWorker(
  databaseUrl: string,
  concurrency: number,
  options: ProcessOptions = {},
  extraEnv: Record<string, string> = {},
): Promise<ChildService> {
  return startBackground(
    'bin/pagegrade.js',
    ['worker', '--concurrency', String(concurrency)],
    { ...benchServerEnv(databaseUrl), ...extraEnv },
    /pagegrade worker: running up to/,
    options,
  );
}
