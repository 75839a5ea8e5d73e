// `worker`: a process that runs background jobs and serves no requests, so work spreads over as
// many processes and machines as it needs. Same settings as the server (DATABASE_URL, REDIS_URL, ...).
import { once } from 'node:events';
import { DEFAULT_WORKERS, loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/open-database.ts';
import { queueEngine } from '../../queue/open-queue.ts';
import { createServices } from '../../services/index.ts';
import { resolveSecretKey } from '../../security/secret-key.ts';
import { UsageError, type Command } from '../command.ts';

const MAX_CONCURRENCY = 64;

function concurrencyOption(value: string | boolean | string[] | boolean[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(number) || number < 1 || number > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be an integer from 1 to ${MAX_CONCURRENCY}; got "${String(value)}".`);
  }
  return number;
}

/** Resolves on the first SIGTERM or SIGINT; a second one then stops the process the usual way. */
async function firstStopSignal(): Promise<void> {
  // Signal listeners do not keep Node running, and an idle queue (nothing to run, or a blocking
  // Redis read between timers) may hold no timer or socket that does: hold the process open.
  const keepAlive = setInterval(() => {}, 60_000);
  const stop = new AbortController();
  const signals = ['SIGTERM', 'SIGINT'].map((name) => once(process, name, { signal: stop.signal }));
  await Promise.race(signals);
  stop.abort();
  await Promise.allSettled(signals);
  clearInterval(keepAlive);
}

export const worker: Command = {
  name: 'worker',
  summary: 'Run background jobs from the queue until SIGTERM; serves no requests.',
  usage: 'worker [--concurrency <n>]',
  details: [
    'Options:',
    `  --concurrency <n>  jobs run at once, 1-${MAX_CONCURRENCY} (default: PAGEGRADE_WORKERS when at least 1, else ${DEFAULT_WORKERS});`,
    '                     webhook deliveries run beside them, PAGEGRADE_WEBHOOK_CONCURRENCY at once',
    '',
    'With REDIS_URL it takes jobs from the BullMQ queue in that Redis: run any number of workers on any',
    'machine with the same DATABASE_URL and REDIS_URL. Without REDIS_URL it takes them from the database',
    '(DATABASE_URL, or the SQLite default on this machine), beside the servers that use it.',
    'At start and twice a PAGEGRADE_JOB_LEASE_MS it queues again the reports and crawls whose jobs the queue lost.',
    'SIGTERM or SIGINT: it takes no more jobs, lets the running ones finish, and exits 0.',
  ].join('\n'),
  options: { concurrency: { type: 'string' } },
  async run(args, io) {
    const concurrency = concurrencyOption(args.values.concurrency);
    const config = loadConfig(io.env);
    // PAGEGRADE_WORKERS=0 in an environment shared with request-only servers must not idle the worker.
    const workers = concurrency ?? (config.workers > 0 ? config.workers : DEFAULT_WORKERS);
    // Before anything opens: a worker without the servers' key could not sign a webhook.
    const secretKey = resolveSecretKey(config);
    if (secretKey.notice) io.stderr.write(`pagegrade worker: ${secretKey.notice}\n`);
    const database = await openDatabase(config.databaseUrl, { sqliteCacheMb: config.sqliteCacheMb });
    const services = createServices(database, config, {
      secretKey: secretKey.key,
      onJobError: (error, { message, kind, jobId }) =>
        io.stderr.write(`${message}${kind ? ` (${kind} ${jobId})` : ''}: ${error instanceof Error ? error.message : String(error)}\n`),
    });
    services.background.start(workers);
    // Listen for the stop signal before saying it runs: a supervisor may signal as soon as it reads that.
    const stopped = firstStopSignal();
    io.stderr.write(
      `pagegrade worker: running up to ${workers} jobs at once from the ${queueEngine(config.redisUrl)} queue. Webhook deliveries: up to ${config.webhookConcurrency} at once beside them.\n`,
    );
    await stopped;
    io.stderr.write('pagegrade worker: stopping once the running jobs finish.\n');
    await services.background.close();
    await services.rendering.close();
    await database.close();
    return 0;
  },
};
