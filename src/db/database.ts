// The database: its type, assembled from the table files, and the one way to open it.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type Dialect } from 'kysely';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.ts';
import pg from 'pg';
import { guardPostgresPool } from './postgres-connection-guard.ts';
import { reusingStatements } from './sqlite-statements.ts';
import type { ApiKeysTable } from './tables/api-key.table.ts';
import type {
  CrawlExternalLinksTable, CrawlExternalsTable, CrawlHostsTable, CrawlIssuesTable, CrawlLabPagesTable, CrawlLinksTable, CrawlPagesTable, CrawlsTable,
} from './tables/crawl.table.ts';
import type { JobsTable } from './tables/job.table.ts';
import type { OrganizationMembersTable, OrganizationsTable } from './tables/organization.table.ts';
import type { ProjectsTable } from './tables/project.table.ts';
import type { ReportsTable } from './tables/report.table.ts';
import type { ReportRunsTable } from './tables/report-run.table.ts';
import type { UsersTable } from './tables/user.table.ts';
import type { WebhookDeliveriesTable, WebhooksTable } from './tables/webhook.table.ts';
import type { WebSessionsTable } from './tables/web-session.table.ts';
import type { ShareLinksTable } from './tables/share-link.table.ts';

export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  api_keys: ApiKeysTable;
  reports: ReportsTable;
  report_runs: ReportRunsTable;
  projects: ProjectsTable;
  web_sessions: WebSessionsTable;
  jobs: JobsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  crawls: CrawlsTable;
  crawl_pages: CrawlPagesTable;
  crawl_issues: CrawlIssuesTable;
  crawl_hosts: CrawlHostsTable;
  crawl_links: CrawlLinksTable;
  crawl_externals: CrawlExternalsTable;
  crawl_external_links: CrawlExternalLinksTable;
  crawl_lab_pages: CrawlLabPagesTable;
  share_links: ShareLinksTable;
}

export type DialectName = 'sqlite' | 'postgres';

export type DatabaseConfig =
  | { dialect: 'sqlite'; filename: string }
  | { dialect: 'postgres'; connectionString: string };

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  destroy(): Promise<void>;
}

export interface CreateDbOptions {
  /** SQLite's page cache limit (default 64 MiB: tests, the CLI); the server passes its setting. */
  sqliteCacheMb?: number;
  /** A PostgreSQL connection failed, idle or in use (server restart, network); the pool replaces it. */
  onIdleConnectionError?: (error: Error) => void;
  /** PostgreSQL: most time to open a connection, or to wait for a free one (default: no limit). */
  connectTimeoutMs?: number;
  /** PostgreSQL: most time one statement may run (default, or 0: no limit). */
  queryTimeoutMs?: number;
  /** Most PostgreSQL connections the pool opens (default 10). */
  poolSize?: number;
}

const DEFAULT_SQLITE_FILE = './data/pagegrade.db';
const POSTGRES_POOL_SIZE = 10;
const WAL_SIZE_LIMIT_BYTES = 8 * 1024 * 1024;

/** DATABASE_URL → which dialect and where. Throws on a scheme we do not know. */
export function parseDatabaseUrl(databaseUrl: string | undefined): DatabaseConfig {
  if (databaseUrl === undefined) return { dialect: 'sqlite', filename: DEFAULT_SQLITE_FILE };
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    return { dialect: 'postgres', connectionString: databaseUrl };
  }
  if (databaseUrl.startsWith('sqlite:')) {
    const filename = databaseUrl.slice('sqlite:'.length);
    if (filename === '') throw new Error('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/pagegrade.db');
    return { dialect: 'sqlite', filename };
  }
  throw new Error('DATABASE_URL must start with postgres://, postgresql:// or sqlite:');
}

export function createDb(databaseUrl: string | undefined, options: CreateDbOptions = {}): DbHandle {
  const config = parseDatabaseUrl(databaseUrl);
  const db = new Kysely<Database>({ dialect: createDialect(config, options) });
  return { db, dialect: config.dialect, destroy: () => db.destroy() };
}

function createDialect(config: DatabaseConfig, options: CreateDbOptions): Dialect {
  switch (config.dialect) {
    case 'sqlite':
      // Kysely opens the connection on its first query and closes it on destroy.
      return new SqliteDialect({ database: async () => reusingStatements(openSqlite(config.filename, options.sqliteCacheMb ?? 64)) });
    case 'postgres':
      return new CurrentSchemaPostgresDialect({ pool: async () => openPostgresPool(config.connectionString, options) });
    default:
      throw new Error(`unknown database dialect: ${JSON.stringify(config satisfies never)}`);
  }
}

function openSqlite(filename: string, cacheMb: number): SqliteDatabase.Database {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const database = new SqliteDatabase(filename);
  // WAL lets readers run while a report is written. NORMAL under WAL never corrupts the file; a power
  // failure can at worst lose the last commits, which is fine for reports that can be re-run.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // SQLite's default 2 MiB page cache re-reads (a system call per 4 KiB page, or a disk read) the
  // report rows and index pages every list request needs (see DEFAULT_SQLITE_CACHE_MB in config.ts).
  database.pragma(`cache_size = -${cacheMb * 1024}`);
  // SQLite checkpoints the WAL itself once it holds 1,000 pages (4 MB); after a checkpoint the file is
  // cut back to this size, so a burst of writes does not leave a large WAL behind for good.
  database.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  return database;
}

function openPostgresPool(connectionString: string, options: CreateDbOptions): pg.Pool {
  const queryTimeoutMs = options.queryTimeoutMs || undefined;
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? POSTGRES_POOL_SIZE,
    types: { getTypeParser },
    connectionTimeoutMillis: options.connectTimeoutMs,
    // The server cancels a statement at the limit; the client gives up a second later, for a server
    // that no longer answers at all.
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs && queryTimeoutMs + 1000,
  });
  // Without a listener, a client's error event would crash the process.
  const onError =
    options.onIdleConnectionError ?? ((error: Error) => console.error('PostgreSQL connection error:', error.message));
  pool.on('error', onError);
  guardPostgresPool(pool, onError);
  return pool;
}

/** pg returns int8 (bigint ids, count(*)) as strings; our ids and counts stay far below 2^53. */
function getTypeParser(id: number, format?: 'text' | 'binary'): unknown {
  if (id === pg.types.builtins.INT8 && format !== 'binary') return parseSafeInteger;
  return pg.types.getTypeParser(id, format);
}

function parseSafeInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`int8 value ${value} is beyond JavaScript's safe integers`);
  return number;
}
