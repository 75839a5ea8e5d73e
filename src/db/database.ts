// The database: its type, assembled from the table files, and the one way to open it.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { guardPostgresPool } from './postgres-connection-guard.ts';
import { attachDirectReader, type DirectReader } from './prepared-reads.ts';
import { withStatementCache } from './sqlite-statement-cache.ts';
import { startCheckpointer } from './sqlite-checkpointer.ts';
import type { ApiKeysTable } from './tables/api-key.table.ts';
import type { ProjectsTable } from './tables/project.table.ts';
import type { ReportResultsTable, ReportsTable } from './tables/report.table.ts';
import type { UsersTable } from './tables/user.table.ts';
import type { WebSessionsTable } from './tables/web-session.table.ts';

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  reports: ReportsTable;
  report_results: ReportResultsTable;
  projects: ProjectsTable;
  web_sessions: WebSessionsTable;
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
  /** false: a reader beside the app's own connection, which leaves SQLite's checkpoints to the app's (default true). */
  checkpoints?: boolean;
  /** Most PostgreSQL connections the pool opens (default 10). */
  poolSize?: number;
}

const DEFAULT_SQLITE_FILE = './data/pagegrade.db';
const POSTGRES_POOL_SIZE = 10;

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
  const { dialect, reader, closed } = createDialect(config, options);
  const db = new Kysely<Database>({ dialect });
  attachDirectReader(db, reader);
  return {
    db,
    dialect: config.dialect,
    destroy: async () => {
      await db.destroy();
      await closed();
    },
  };
}

/**
 * `closed()`: closes what Kysely left open (it closes a connection or pool only if a query of its own
 * opened it) and resolves once everything the connection started is closed too.
 */
function createDialect(
  config: DatabaseConfig,
  options: CreateDbOptions,
): { dialect: Dialect; reader: DirectReader; closed: () => Promise<void> } {
  switch (config.dialect) {
    case 'sqlite': {
      const connection = openSqliteForKysely(config.filename, options.sqliteCacheMb ?? 64, options.checkpoints ?? true);
      return { dialect: new SqliteDialect({ database: connection }), reader: connection.reader, closed: connection.closed };
    }
    case 'postgres': {
      const pool = openPostgresPool(config.connectionString, options);
      // Kysely ends the pool only if a query of its own ever went through it; direct reads use it too.
      const closed = async () => {
        if (!pool.ending) await pool.end();
      };
      return { dialect: new PostgresDialect({ pool }), reader: postgresReader(pool), closed };
    }
    default:
      throw new Error(`unknown database dialect: ${JSON.stringify(config satisfies never)}`);
  }
}

/**
 * The connection with compiled statements kept, and, for a file, checkpoints on a thread of their own;
 * plus its direct reader. Kysely runs a transaction's statements on this same connection, with awaits
 * between them, so while one is open a direct read would see its uncommitted rows: the reader declines
 * and the read waits its turn in Kysely. (Nothing streams rows from this connection: a statement still
 * being iterated would make a direct read throw rather than wait.)
 */
function openSqliteForKysely(filename: string, cacheMb: number, checkpoints: boolean) {
  const database = openSqlite(filename, cacheMb);
  const connection = withStatementCache(database);
  // total_changes(): rows this connection has written (rolled back ones too); data_version: moves when
  // another connection (another process, the CLI) commits. Together they tell "nothing changed".
  const changes = database.prepare('select total_changes(), data_version from pragma_data_version').raw();
  const reader: DirectReader = {
    dialect: 'sqlite',
    all: (sql, parameters) => (database.inTransaction ? undefined : connection.prepare(sql).all(parameters)),
    // Inside a transaction this connection's changes are not yet everyone's: no stamp.
    changeStamp: () => (database.inTransaction ? undefined : (changes.get() as number[]).join(':')),
  };
  const checkpointer = filename === ':memory:' || !checkpoints ? undefined : startCheckpointer(database, filename);
  let checkpointerStopped: Promise<void> | undefined;
  const close = () => {
    if (!database.open) return;
    // This connection first, then the thread's: told to stop first, the thread could close its own
    // connection at the same moment on the other core, and two connections closing at once each find the
    // other still open, so neither removes the WAL (SQLite does that only as the last one closes).
    connection.close();
    checkpointerStopped = checkpointer?.stop();
  };
  return {
    ...connection,
    reader,
    close,
    // Kysely closes the connection only if a query ever went through it: a handle destroyed unused is
    // closed here, or its connection and checkpoint thread would stay open (and a thread still starting
    // could open a file whose directory is gone). Awaiting the thread matters: a process that ended
    // before its connection closed would cut it off, the last one, and leave the WAL behind.
    closed: async () => {
      close();
      await checkpointerStopped;
    },
  };
}

/**
 * pool.query takes an idle connection, as Kysely would for a query outside a transaction. Each query
 * is a named statement: every connection parses it once and PostgreSQL may keep its plan (at a million
 * reports up to a third more list requests per second than parsing and planning each time).
 */
function postgresReader(pool: pg.Pool): DirectReader {
  const names = new Map<string, string>();
  const nameOf = (sql: string) => {
    let name = names.get(sql);
    if (!name) names.set(sql, (name = `pagegrade_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`));
    return name;
  };
  return {
    dialect: 'postgres',
    all: async (sql, parameters) => (await pool.query({ name: nameOf(sql), text: sql, values: parameters as unknown[] })).rows,
  };
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
