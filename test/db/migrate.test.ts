import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb, type DialectName } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import * as createUsersAndApiKeys from '../../src/db/migrations/2026-11-21-0900-create-users-and-api-keys.ts';
import * as createReportsAndProjects from '../../src/db/migrations/2026-11-21-0910-create-reports-and-projects.ts';
import { createScratchDatabase, forEachDialect, testDialects } from '../support/databases.ts';

const MIGRATION_NAMES = [
  '2026-11-21-0900-create-users-and-api-keys',
  '2026-11-21-0910-create-reports-and-projects',
  '2026-11-22-0900-create-web-sessions',
  '2026-11-22-1000-move-report-results-to-own-table',
  '2026-11-22-1100-stored-report-summaries',
  '2026-11-22-1200-search-in-sort-indexes',
  '2026-11-24-0900-reports-version',
  '2026-11-25-0900-project-summary-indexes',
  '2026-11-26-0900-drop-stored-summaries',
  '2026-11-26-0910-project-owner-statistics',
  '2026-11-26-1600-create-jobs',
  '2026-11-27-0900-report-analysis-state',
  '2026-11-27-0910-create-webhooks',
  '2026-11-27-1000-report-runs',
  '2026-11-27-1100-report-schedules',
  '2026-11-28-0900-create-crawls',
  '2026-11-28-1000-report-run-rendered',
  '2026-11-28-1200-report-score-sort',
  '2026-11-30-0900-job-generations',
  '2026-12-02-0900-crawl-bounds',
  '2026-12-03-0900-crawl-settings',
  '2026-12-03-1000-crawl-list-mode',
  '2026-12-03-1100-run-lab',
  '2026-12-03-1200-crawl-lab',
  '2026-12-04-1000-run-structured-data',
  '2026-12-04-1100-crawl-rich-result-errors',
  '2026-12-04-1200-organizations',
  '2026-12-04-1300-share-links',
];

async function tableNames(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_name not like 'kysely_%'`;
  const { rows } = await query.execute(db);
  return rows.map((row) => row.name).sort();
}

describe.each(testDialects())('migrations [%s]', (dialect) => {
  it('applies every migration once; running again is a no-op that keeps the data', async () => {
    const scratch = await createScratchDatabase(dialect);
    const handle = createDb(scratch.databaseUrl);
    try {
      expect(await migrateToLatest(handle.db)).toEqual(MIGRATION_NAMES);
      await handle.db
        .insertInto('users')
        .values({ email: 'kept@example.com', is_admin: 0, created_at: '2026-11-21T10:00:00.000Z' })
        .execute();
      expect(await migrateToLatest(handle.db)).toEqual([]);
      const users = await handle.db.selectFrom('users').select('email').execute();
      expect(users).toEqual([{ email: 'kept@example.com' }]);
      expect(await tableNames(handle.db, dialect)).toEqual(['api_keys', 'crawl_external_links', 'crawl_externals', 'crawl_hosts', 'crawl_issues', 'crawl_lab_pages', 'crawl_links', 'crawl_pages', 'crawls', 'jobs', 'organization_members', 'organizations', 'projects', 'report_runs', 'reports', 'share_links', 'users', 'web_sessions', 'webhook_deliveries', 'webhooks']);
    } finally {
      await handle.destroy();
      await scratch.drop();
    }
  });

  it('down undoes up', async () => {
    const scratch = await createScratchDatabase(dialect);
    const handle = createDb(scratch.databaseUrl);
    try {
      await createUsersAndApiKeys.up(handle.db);
      await createReportsAndProjects.up(handle.db);
      expect(await tableNames(handle.db, dialect)).toEqual(['api_keys', 'projects', 'reports', 'users']);
      await createReportsAndProjects.down(handle.db);
      await createUsersAndApiKeys.down(handle.db);
      expect(await tableNames(handle.db, dialect)).toEqual([]);
    } finally {
      await handle.destroy();
      await scratch.drop();
    }
  });
});

forEachDialect('a migrated test database', (database) => {
  it('returns ids and counts as numbers', async () => {
    const { db } = database();
    const user = await db
      .insertInto('users')
      .values({ email: 'numbers@example.com', is_admin: 1, created_at: '2026-11-21T10:00:00.000Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(typeof user.id).toBe('number');
    const { count } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(count).toBeTypeOf('number');
  });
});

describe.runIf(testDialects().includes('postgres'))('PostgreSQL test schemas', () => {
  it('each scratch database is its own schema, and the connection string puts the pool in it', async () => {
    const first = await createScratchDatabase('postgres');
    const second = await createScratchDatabase('postgres');
    const firstHandle = createDb(first.databaseUrl);
    const secondHandle = createDb(second.databaseUrl);
    try {
      await migrateToLatest(firstHandle.db);
      expect(await migrateToLatest(secondHandle.db)).toEqual(MIGRATION_NAMES);
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(firstHandle.db);
      expect(first.databaseUrl).toContain(rows[0].schema);
      expect(second.databaseUrl).not.toContain(rows[0].schema);
    } finally {
      await firstHandle.destroy();
      await secondHandle.destroy();
      await first.drop();
      await second.drop();
    }
  });

  it('compares the sorted and searched text columns by code point (collation "C")', async () => {
    const scratch = await createScratchDatabase('postgres');
    const handle = createDb(scratch.databaseUrl);
    try {
      await migrateToLatest(handle.db);
      const { rows } = await sql<{ column: string; collation: string | null }>`
        select table_name || '.' || column_name as column, collation_name as collation from information_schema.columns
        where table_schema = current_schema() and table_name in ('reports', 'projects')
          and column_name in ('url', 'url_lower', 'project', 'generated_at', 'name', 'name_lower', 'created_at')
        order by 1`.execute(handle.db);
      expect(rows).toEqual(
        [
          'projects.created_at',
          'projects.name',
          'projects.name_lower',
          'reports.created_at',
          'reports.generated_at',
          'reports.project',
          'reports.url',
          'reports.url_lower',
        ].map((column) => ({ column, collation: 'C' })),
      );
    } finally {
      await handle.destroy();
      await scratch.drop();
    }
  });

  it('rejects an int8 beyond the safe integers instead of rounding it', async () => {
    const scratch = await createScratchDatabase('postgres');
    const handle = createDb(scratch.databaseUrl);
    try {
      await expect(sql`select 9007199254740993::bigint as n`.execute(handle.db)).rejects.toThrow(/safe integers/);
      const { rows } = await sql<{ n: number }>`select 9007199254740991::bigint as n`.execute(handle.db);
      expect(rows[0].n).toBe(Number.MAX_SAFE_INTEGER);
    } finally {
      await handle.destroy();
      await scratch.drop();
    }
  });
});
