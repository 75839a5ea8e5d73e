// The read benchmark's database: seeded in bulk through the repository layer, on SQLite (a file) or
// PostgreSQL (a schema of its own, so the tests' schemas are untouched). A large database (read.ts
// says from what size) is kept between runs (bench/.cache/read-<n>.db, or schema bench_read_<n>) and
// reused while its seed marker matches; a small one is seeded fresh and removed afterwards.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { DialectName } from '../src/db/database.ts';
import { openDatabase, type AppDatabase } from '../src/db/open-database.ts';
import { insertApiKey } from '../src/repositories/api-key.repository.ts';
import { insertProjectsBulk } from '../src/repositories/project.repository.ts';
import { insertReportsBulk } from '../src/repositories/report.repository.ts';
import { findUserByEmail, insertUser } from '../src/repositories/user.repository.ts';
import { hashApiKey } from '../src/security/hashing.ts';
import { REPO_ROOT } from './processes.ts';
import { ProjectTally } from '../test/support/project-tally.ts';
import { reportBatches, seedAccounts, SEED_VERSION, type SeedSize } from './seed-rows.ts';
import { MB, round } from './stats.ts';

export interface ReadAccount {
  organizationId: number;
  apiKey: string;
  projects: string[];
  /** some of the account's report ids, spread over its whole history */
  reportIds: number[];
}

export interface SeedInfo {
  reports: number;
  accounts: number;
  projects: number;
  /** false: an earlier run's database was reused */
  seeded_now: boolean;
  /** how long seeding took (when reused: the run that seeded it) */
  seed_s: number;
  disk_mb: number;
}

export interface ReadDatabase {
  dialect: DialectName;
  databaseUrl: string;
  accounts: ReadAccount[];
  seed: SeedInfo;
  /** removes a database seeded only for this run; keeps a cached one */
  dispose(): Promise<void>;
}

interface Marker {
  seed_version: number;
  size: SeedSize;
  seed_s: number;
}

const CACHE_DIR = join(REPO_ROOT, 'bench/.cache');
const REPORTS_PER_TRANSACTION = 5_000;
/** Report ids kept per account for `show`, evenly spread over its history. */
const IDS_PER_ACCOUNT = 100;

export async function prepareReadDatabase(
  dialect: DialectName,
  size: SeedSize,
  cached: boolean,
  postgresUrl?: string,
): Promise<ReadDatabase> {
  switch (dialect) {
    case 'sqlite':
      return prepareSqlite(size, cached);
    case 'postgres':
      if (!postgresUrl) throw new Error('a PostgreSQL read benchmark needs DATABASE_URL');
      return preparePostgres(size, cached, postgresUrl);
    default:
      throw new Error(`unknown dialect ${JSON.stringify(dialect satisfies never)}`);
  }
}

function markerMatches(marker: Marker | null, size: SeedSize): marker is Marker {
  return marker !== null && marker.seed_version === SEED_VERSION && JSON.stringify(marker.size) === JSON.stringify(size);
}

async function prepareSqlite(size: SeedSize, cached: boolean): Promise<ReadDatabase> {
  const directory = cached ? CACHE_DIR : await mkdtemp(join(tmpdir(), 'pagegrade-bench-read-'));
  await mkdir(directory, { recursive: true });
  const file = join(directory, `read-${size.reports}.db`);
  const markerFile = `${file}.json`;
  const databaseUrl = `sqlite:${file}`;
  const existing = existsSync(markerFile) ? (JSON.parse(readFileSync(markerFile, 'utf8')) as Marker) : null;
  let marker: Marker;
  let seededNow = false;
  if (cached && markerMatches(existing, size) && existsSync(file)) {
    marker = existing;
  } else {
    await rm(markerFile, { force: true });
    for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
    marker = { seed_version: SEED_VERSION, size, seed_s: await seed(databaseUrl, size) };
    seededNow = true;
    if (cached) writeFileSync(markerFile, `${JSON.stringify(marker)}\n`);
  }
  const accounts = await readAccounts(databaseUrl, size);
  const diskBytes = ['', '-wal'].reduce((sum, suffix) => sum + (existsSync(file + suffix) ? statSync(file + suffix).size : 0), 0);
  return {
    dialect: 'sqlite',
    databaseUrl,
    accounts,
    seed: seedInfo(size, seededNow, marker.seed_s, diskBytes),
    dispose: async () => {
      if (!cached) await rm(directory, { recursive: true, force: true });
    },
  };
}

async function preparePostgres(size: SeedSize, cached: boolean, serverUrl: string): Promise<ReadDatabase> {
  // A throwaway database gets a schema of its own process, so two quick runs at once do not collide.
  const schema = cached ? `bench_read_${size.reports}` : `bench_read_${size.reports}_${process.pid}`;
  const url = new URL(serverUrl);
  // As the tests do: every pooled connection lands in the schema; public stays for pg_trgm.
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const databaseUrl = url.toString();
  url.searchParams.set('options', `-c search_path=${schema},public -c synchronous_commit=off`);
  const seedingUrl = url.toString();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      'select obj_description(oid, $1) as comment from pg_namespace where nspname = $2',
      ['pg_namespace', schema],
    );
    const existing = rows[0]?.comment ? (JSON.parse(rows[0].comment) as Marker) : null;
    let marker: Marker;
    let seededNow = false;
    if (cached && markerMatches(existing, size)) {
      marker = existing;
    } else {
      await admin.query(`drop schema if exists ${schema} cascade`);
      // In public, once, as the tests make it: an extension created inside this schema would vanish
      // with it, and take the tests' trigram indexes along.
      await admin.query('create extension if not exists pg_trgm schema public');
      await admin.query(`create schema ${schema}`);
      marker = { seed_version: SEED_VERSION, size, seed_s: await seed(seedingUrl, size) };
      seededNow = true;
      await admin.query(`comment on schema ${schema} is '${JSON.stringify(marker)}'`);
    }
    const { rows: sizeRows } = await admin.query<{ bytes: string }>(
      `select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
      [schema],
    );
    const accounts = await readAccounts(databaseUrl, size);
    return {
      dialect: 'postgres',
      databaseUrl,
      accounts,
      seed: seedInfo(size, seededNow, marker.seed_s, Number(sizeRows[0].bytes)),
      dispose: async () => {
        if (cached) return;
        const client = new pg.Client({ connectionString: serverUrl });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      },
    };
  } finally {
    await admin.end();
  }
}

function seedInfo(size: SeedSize, seededNow: boolean, seedSeconds: number, diskBytes: number): SeedInfo {
  return {
    reports: size.reports,
    accounts: size.accounts,
    projects: size.accounts * size.projectsPerAccount,
    seeded_now: seededNow,
    seed_s: seedSeconds,
    disk_mb: round(diskBytes / MB, 0),
  };
}

/** Seeds an empty database; returns the seconds it took. */
async function seed(databaseUrl: string, size: SeedSize): Promise<number> {
  const started = performance.now();
  const database = await openDatabase(databaseUrl);
  try {
    await fastUnsafeWrites(database);
    const accounts = seedAccounts(size);
    const userIds: number[] = [];
    const createdAt = new Date(0).toISOString();
    for (const account of accounts) {
      const user = await insertUser(database.db, { email: account.email, is_admin: 0, created_at: createdAt });
      await insertApiKey(database.db, {
        user_id: user.id,
        key_hash: hashApiKey(account.apiKey),
        key_prefix: account.apiKey.slice(0, 12),
        label: 'benchmark',
        created_at: createdAt,
        last_used_at: null,
        revoked_at: null,
      });
      userIds.push(user.organization_id);
    }
    const tally = new ProjectTally();
    let inserted = 0;
    for (const batch of reportBatches(size, accounts, userIds, REPORTS_PER_TRANSACTION)) {
      for (const report of batch) tally.add(report);
      await insertReportsBulk(database.db, batch);
      inserted += batch.length;
      if (inserted % 100_000 === 0) process.stdout.write(`  seeded ${inserted} reports\n`);
    }
    await insertProjectsBulk(database.db, tally.rows());
    await analyze(database);
  } finally {
    await database.close();
  }
  return round((performance.now() - started) / 1000, 1);
}

/**
 * A seed that dies half-way is thrown away (its marker is written last), so SQLite need not wait for
 * the disk. (PostgreSQL gets synchronous_commit=off through the seeding URL.)
 */
async function fastUnsafeWrites(database: AppDatabase): Promise<void> {
  if (database.dialect === 'sqlite') await sql`pragma synchronous = off`.execute(database.db);
}

/**
 * Fresh planner statistics, as a live database would have; on PostgreSQL also the visibility map that
 * autovacuum would have set by now, without which no count is answered from an index alone.
 */
async function analyze(database: AppDatabase): Promise<void> {
  const statement =
    database.dialect === 'postgres' ? sql`vacuum analyze users, api_keys, reports, report_runs, projects` : sql`analyze`;
  await statement.execute(database.db);
}

async function readAccounts(databaseUrl: string, size: SeedSize): Promise<ReadAccount[]> {
  const database = await openDatabase(databaseUrl);
  try {
    const accounts: ReadAccount[] = [];
    for (const account of seedAccounts(size)) {
      const user = await findUserByEmail(database.db, account.email);
      if (!user) throw new Error(`the seeded database has no ${account.email}`);
      const rows = await database.db.selectFrom('reports').select('id').where('organization_id', '=', user.organization_id).execute();
      const step = Math.max(1, Math.floor(rows.length / IDS_PER_ACCOUNT));
      const reportIds = rows.filter((_, index) => index % step === 0).map((row) => row.id);
      accounts.push({ organizationId: user.organization_id, apiKey: account.apiKey, projects: account.projects, reportIds });
    }
    return accounts;
  } finally {
    await database.close();
  }
}
