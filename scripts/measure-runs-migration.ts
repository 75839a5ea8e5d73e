// `npm run measure:runs-migration -- [--dialect sqlite|postgres] [--reports 1000000]`: how long the
// migration to runs (every report's results copied into its first run) takes on a database of that many
// reports with results of real size, made by the migrations of the release before it. PostgreSQL needs
// DATABASE_URL (a schema of its own is made and dropped). Prints the seconds for the seed and for the
// migration, and the sizes.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { createDb } from '../src/db/database.ts';
import { RESULT_RANK } from '../src/db/tables/report.table.ts';
import { migrateTo, migrateToLatest } from '../src/db/migrate.ts';
import { reportBatches, seedAccounts } from '../bench/seed-rows.ts';

const LAST_BEFORE_RUNS = '2026-11-27-0910-create-webhooks';
/** Rows per statement: far below both drivers' parameter limits. */
const ROWS_PER_STATEMENT = 500;

const { values } = parseArgs({ options: { dialect: { type: 'string', default: 'sqlite' }, reports: { type: 'string', default: '1000000' } } });
const reports = Number(values.reports);
if (!Number.isInteger(reports) || reports < 1) throw new Error(`--reports must be a positive integer; got ${values.reports}`);

async function seed(db: Kysely<any>): Promise<void> {
  const size = { reports, accounts: 100, projectsPerAccount: 20 };
  const accounts = seedAccounts(size);
  const userIds: number[] = [];
  for (const account of accounts) {
    const { id } = await db.insertInto('users').values({ email: account.email, is_admin: 0, created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
    userIds.push(id);
  }
  for (const batch of reportBatches(size, accounts, userIds, ROWS_PER_STATEMENT)) {
    await db.transaction().execute(async (trx) => {
      const rows = batch.map(({ results: _results, ...row }) => ({ ...row, url_lower: row.url.toLowerCase(), result_rank: RESULT_RANK[row.result!] }));
      const ids = (await trx.insertInto('reports').values(rows).returning('id').execute()).map((row) => row.id).sort((a, b) => a - b);
      await trx.insertInto('report_results').values(ids.map((id, index) => ({ report_id: id, results: batch[index].results }))).execute();
    });
  }
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  process.stdout.write(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

async function measure(databaseUrl: string, size: () => Promise<string>): Promise<void> {
  const handle = createDb(databaseUrl);
  try {
    await migrateTo(handle.db, LAST_BEFORE_RUNS);
    await timed(`seed ${reports} reports`, () => seed(handle.db));
    process.stdout.write(`size before: ${await size()}\n`);
    const applied = await timed('migrate to runs', () => migrateToLatest(handle.db));
    process.stdout.write(`applied: ${applied.join(', ')}\nsize after: ${await size()}\n`);
  } finally {
    await handle.destroy();
  }
}

if (values.dialect === 'sqlite') {
  const directory = await mkdtemp(join(tmpdir(), 'pagegrade-runs-migration-'));
  const file = join(directory, 'measure.db');
  try {
    await measure(`sqlite:${file}`, async () => `${((await stat(file)).size / 1e9).toFixed(2)} GB`);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
} else if (values.dialect === 'postgres') {
  const server = process.env.DATABASE_URL;
  if (!server?.startsWith('postgres')) throw new Error('DATABASE_URL must point at a PostgreSQL server');
  const schema = `measure_runs_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(server);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  try {
    await measure(url.toString(), async () => {
      const { rows } = await admin.query(`select pg_size_pretty(sum(pg_total_relation_size(c.oid))) as size from pg_class c
        join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`, [schema]);
      return String(rows[0].size);
    });
  } finally {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
} else {
  throw new Error(`--dialect must be sqlite or postgres; got ${values.dialect}`);
}

