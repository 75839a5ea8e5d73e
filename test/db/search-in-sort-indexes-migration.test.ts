// The migration that ends the sort and filter indexes in url_lower (so a url search sorted by date, url
// or result, or filtered by project, reads the index alone) keeps every report, and its down gives the
// indexes their old columns.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import * as searchInSortIndexes from '../../src/db/migrations/2026-11-22-1200-search-in-sort-indexes.ts';
import { accountWithReports } from '../support/repository-fixtures.ts';
import { indexColumns, sqliteAnalyzedIndexes as analyzedIndexes, sqliteStatisticsTables as statisticsTables } from '../support/schema.ts';
import { seededBeforeOrganizations } from '../support/migration-fixtures.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const BEFORE: Record<string, string[]> = {
  reports_user_generated_at_idx: ['user_id', 'generated_at', 'id'],
  reports_user_url_idx: ['user_id', 'url', 'id'],
  reports_user_rank_idx: ['user_id', 'result_rank', 'id'],
  reports_user_rank_generated_at_idx: ['user_id', 'result_rank', 'generated_at', 'id'],
  reports_user_rank_url_idx: ['user_id', 'result_rank', 'url', 'id'],
  reports_user_project_idx: ['user_id', 'project', 'id'],
  reports_user_project_generated_at_idx: ['user_id', 'project', 'generated_at', 'id'],
  reports_user_project_url_idx: ['user_id', 'project', 'url', 'id'],
  reports_user_project_rank_idx: ['user_id', 'project', 'result_rank', 'id'],
  reports_user_project_rank_generated_at_idx: ['user_id', 'project', 'result_rank', 'generated_at', 'id'],
  reports_user_project_rank_url_idx: ['user_id', 'project', 'result_rank', 'url', 'id'],
};
/** The id-ordered index that holds url_lower already. */
const UNTOUCHED = { reports_user_id_url_lower_idx: ['user_id', 'id', 'url_lower'] };

describe.each(testDialects())('url_lower in the sort indexes [%s]', (dialect) => {
  it('up appends url_lower to the eleven sort and filter indexes, down takes it off, and no report is lost', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await seededBeforeOrganizations(db, (seeded) => accountWithReports(seeded, ['https://a.com/Pricing', 'https://a.com/about']));
      const reports = async () => db.selectFrom('reports').select(['id', 'url_lower']).orderBy('id').execute();
      const stored = await reports();

      for (const [index, columns] of Object.entries(BEFORE)) expect(await indexColumns(db, dialect, index)).toEqual([...columns, 'url_lower']);
      for (const [index, columns] of Object.entries(UNTOUCHED)) expect(await indexColumns(db, dialect, index)).toEqual(columns);

      await searchInSortIndexes.down(db);
      for (const [index, columns] of Object.entries({ ...BEFORE, ...UNTOUCHED })) expect(await indexColumns(db, dialect, index)).toEqual(columns);
      expect(await reports()).toEqual(stored);

      await searchInSortIndexes.up(db);
      expect(await indexColumns(db, dialect, 'reports_user_url_idx')).toEqual([...BEFORE.reports_user_url_idx, 'url_lower']);
      expect(await reports()).toEqual(stored);
    });
  });

  it.runIf(dialect === 'sqlite')('gives the rebuilt indexes their SQLite statistics where ANALYZE made some, and makes none otherwise', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await seededBeforeOrganizations(db, (seeded) => accountWithReports(seeded));
      await searchInSortIndexes.down(db);
      await searchInSortIndexes.up(db);
      expect(await statisticsTables(db)).toEqual([]);

      await sql`analyze`.execute(db);
      await searchInSortIndexes.down(db);
      expect(await analyzedIndexes(db)).toEqual(expect.arrayContaining(Object.keys(BEFORE)));
      await searchInSortIndexes.up(db);
      expect(await analyzedIndexes(db)).toEqual(expect.arrayContaining(Object.keys(BEFORE)));
    });
  });
});
