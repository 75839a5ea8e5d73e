// The installations the crawl-scale benchmark crawls through, each on a database of its own:
// - sqlite: the server alone on a fresh SQLite file, running the crawl's jobs itself (the embedded queue);
// - postgres: a fresh PostgreSQL database (created on the server of TEST_DATABASE_URL, else the
//   local test server; dropped afterwards), BullMQ on Redis under a prefix of its own, the server only
//   taking requests and two `pagegrade worker` processes running the jobs.
// Each can say how large its database is and answer the SQL the stored-once check asks.
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startPagegrade, startPagegradeWorker } from './pagegrade-server.ts';
import type { ChildService, ProcessOptions } from './processes.ts';

export type ScaleEngine = 'sqlite' | 'postgres';

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** `pagegrade worker` processes beside the server on PostgreSQL. */
const POSTGRES_WORKERS = 2;
/**
 * How often the crawls table is vacuumed when the server runs without autovacuum. Every page's store
 * updates its crawl's row, so without vacuum the one row's dead versions pile up (200 MB after 50,000
 * pages) and each update slows: 48 pages a second fell to 3. Production servers run autovacuum (on by
 * default); this stands in for it on a test server that turns it off.
 */
const VACUUM_EVERY_MS = 30_000;

export interface Installation {
  engine: ScaleEngine;
  /** who runs the crawl's jobs, in words */
  workers: string;
  origin: string;
  /** the server first, then the workers */
  processes: { name: string; pid: number }[];
  /** the database's bytes now (SQLite: the file and its WAL) */
  databaseBytes(): Promise<number>;
  /** rows of one read-only query */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** stops every process and removes the database and the queue */
  close(): Promise<void>;
}

/** jobSlots: the job slots the crawl needs (its work jobs and the start job), per process that runs jobs. */
export async function install(
  engine: ScaleEngine,
  crawlEnv: Record<string, string>,
  jobSlots: number,
  options: ProcessOptions,
): Promise<Installation> {
  return engine === 'sqlite' ? installSqlite(crawlEnv, jobSlots, options) : installPostgres(crawlEnv, jobSlots, options);
}

async function installSqlite(crawlEnv: Record<string, string>, jobSlots: number, options: ProcessOptions): Promise<Installation> {
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-bench-crawl-scale-'));
  const file = join(directory, 'crawl.db');
  const server = await startPagegrade(`sqlite:${file}`, options, { ...crawlEnv, PAGEGRADE_WORKERS: String(jobSlots) }).catch(async (error) => {
    await rm(directory, { recursive: true, force: true });
    throw error;
  });
  return {
    engine: 'sqlite',
    workers: `the server, PAGEGRADE_WORKERS=${jobSlots}`,
    origin: server.origin,
    processes: [{ name: 'server', pid: server.pid }],
    async databaseBytes() {
      return [file, `${file}-wal`].reduce((sum, each) => sum + (existsSync(each) ? statSync(each).size : 0), 0);
    },
    async query(sql) {
      // A second connection, read-only: the server's WAL lets it read while the server runs.
      const connection = new Sqlite(file, { readonly: true });
      try {
        return connection.prepare(sql).all() as Record<string, unknown>[];
      } finally {
        connection.close();
      }
    },
    async close() {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Every key under the installation's prefix: its queue and each lane's (webhooks, ...), whatever their names. */
async function removeRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function installPostgres(crawlEnv: Record<string, string>, jobSlots: number, options: ProcessOptions): Promise<Installation> {
  const adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_POSTGRES_URL;
  const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL;
  const name = `pagegrade_bench_scale_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.href;
  const database = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const prefix = `pagegrade-bench-scale-${process.pid}-${randomBytes(4).toString('hex')}`;
  const env = { ...crawlEnv, REDIS_URL: redisUrl, PAGEGRADE_QUEUE_PREFIX: prefix };
  const started: ChildService[] = [];
  let vacuums: NodeJS.Timeout | null = null;
  const close = async () => {
    if (vacuums) clearInterval(vacuums);
    for (const child of started.reverse()) await child.stop();
    await database.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await removeRedisKeys(redisUrl, prefix);
  };
  try {
    // The server first: it migrates the database the workers then open.
    const server = await startPagegrade(databaseUrl, options, { ...env, PAGEGRADE_WORKERS: '0' });
    started.push(server);
    vacuums = await standInForAutovacuum(database);
    for (let index = 0; index < POSTGRES_WORKERS; index++) started.push(await startPagegradeWorker(databaseUrl, jobSlots, options, env));
    return {
      engine: 'postgres',
      workers:
        `${POSTGRES_WORKERS} \`pagegrade worker --concurrency ${jobSlots}\` on BullMQ (server PAGEGRADE_WORKERS=0)` +
        (vacuums ? `; the server runs without autovacuum, so the crawls table is vacuumed every ${VACUUM_EVERY_MS / 1000} s` : ''),
      origin: server.origin,
      processes: started.map((child, index) => ({ name: index === 0 ? 'server' : `worker ${index}`, pid: child.pid })),
      async databaseBytes() {
        const { rows } = await database.query('SELECT pg_database_size(current_database()) AS bytes');
        return Number(rows[0].bytes);
      },
      async query(sql) {
        return (await database.query(sql)).rows as Record<string, unknown>[];
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** With autovacuum off on the server, VACUUM the crawls table every VACUUM_EVERY_MS (null: autovacuum is on). */
async function standInForAutovacuum(database: pg.Pool): Promise<NodeJS.Timeout | null> {
  const { rows } = await database.query('SHOW autovacuum');
  if (rows[0].autovacuum !== 'off') return null;
  let running = false;
  return setInterval(() => {
    if (running) return;
    running = true;
    database
      .query('VACUUM crawls')
      .catch((error: unknown) => console.error(`crawl-scale: VACUUM crawls failed: ${String(error)}`))
      .finally(() => (running = false));
  }, VACUUM_EVERY_MS);
}
