// The migration that moves report results into their own table keeps every report's results, and
// its down puts them back.
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/database.ts';
import * as createUsersAndApiKeys from '../../src/db/migrations/2026-11-21-0900-create-users-and-api-keys.ts';
import * as createReportsAndProjects from '../../src/db/migrations/2026-11-21-0910-create-reports-and-projects.ts';
import * as moveReportResults from '../../src/db/migrations/2026-11-22-1000-move-report-results-to-own-table.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-21T10:00:00.000Z';

function oldReport(userId: number, url: string, results: string) {
  return {
    user_id: userId,
    url,
    url_lower: url.toLowerCase(),
    project: 'a.com',
    privacy: 0,
    password_hash: null,
    result: 'good',
    result_rank: 2,
    score: 90,
    issues_high: 0,
    issues_medium: 0,
    issues_low: 0,
    page: '{}',
    results,
    generated_at: NOW,
    created_at: NOW,
    updated_at: NOW,
  };
}

async function indexes(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'reports'`
      : sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'reports'`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

describe.each(testDialects())('moving report results to their own table [%s]', (dialect) => {
  it('keeps every report with its results, swaps the owner index, and down restores the old shape', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await createUsersAndApiKeys.up(db);
      await createReportsAndProjects.up(db);
      const { id: userId } = await db
        .insertInto('users')
        .values({ email: 'a@example.com', is_admin: 0, created_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow();
      const before = [
        oldReport(userId, 'https://a.com/1', '{"title":{"passed":true}}'),
        oldReport(userId, 'https://a.com/2', '{"title":{"passed":false}}'),
      ];
      const ids = (await db.insertInto('reports').values(before).returning('id').execute()).map((row) => row.id);

      if (dialect === 'postgres') expect(await indexes(db, dialect)).toContain('reports_url_lower_trgm_idx');
      await moveReportResults.up(db);
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('results');
      const moved = await db.selectFrom('report_results').selectAll().orderBy('report_id').execute();
      expect(moved).toEqual(ids.map((id, index) => ({ report_id: id, results: before[index].results })));
      expect(await indexes(db, dialect)).toContain('reports_user_id_url_lower_idx');
      expect(await indexes(db, dialect)).not.toContain('reports_user_id_idx');
      expect(await indexes(db, dialect)).not.toContain('reports_url_lower_trgm_idx');

      // Deleting a report takes its results with it (createDb turns SQLite's foreign keys on).
      await db.deleteFrom('reports').where('id', '=', ids[1]).execute();
      expect(await db.selectFrom('report_results').select('report_id').execute()).toEqual([{ report_id: ids[0] }]);

      await moveReportResults.down(db);
      expect(await tableColumns(db, dialect, 'reports')).toContain('results');
      expect(await db.selectFrom('reports').select(['id', 'results']).execute()).toEqual([{ id: ids[0], results: before[0].results }]);
      expect(await indexes(db, dialect)).toContain('reports_user_id_idx');
      // The test databases have pg_trgm, so the earlier migration made the trigram index; down restores it.
      if (dialect === 'postgres') expect(await indexes(db, dialect)).toContain('reports_url_lower_trgm_idx');
    });
  });
});
