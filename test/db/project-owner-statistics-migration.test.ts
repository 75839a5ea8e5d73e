// PostgreSQL gets extended statistics tying a report's project to its owner (so a project's pages are
// planned for its real size); down drops them; SQLite has no such thing and is left alone.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';

// The schema as it was before organisations renamed the owner columns (this test's migration is older).
const BEFORE_ORGANIZATIONS = '2026-12-04-1100-crawl-rich-result-errors';
import * as projectOwnerStatistics from '../../src/db/migrations/2026-11-26-0910-project-owner-statistics.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

describe.each(testDialects())('project owner statistics [%s]', (dialect) => {
  it(dialect === 'postgres' ? 'up creates the statistics, down drops them' : 'changes nothing on SQLite', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, BEFORE_ORGANIZATIONS);
      const statistics = async () =>
        dialect === 'postgres'
          ? (await sql<{ name: string }>`select stxname as name from pg_statistic_ext
              where stxnamespace = current_schema()::regnamespace`.execute(db)).rows.map((row) => row.name)
          : [];
      expect(await statistics()).toEqual(dialect === 'postgres' ? ['reports_user_project_stats'] : []);
      await projectOwnerStatistics.down(db);
      expect(await statistics()).toEqual([]);
      await projectOwnerStatistics.up(db);
      expect(await statistics()).toEqual(dialect === 'postgres' ? ['reports_user_project_stats'] : []);
    });
  });
});
