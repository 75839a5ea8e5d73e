// The migration that gives SQLite two indexes holding a project's list items (newest first, and one
// verdict by url) makes them with the summary last, keeps every report, and its down drops them again;
// PostgreSQL gets neither (an item can be larger than a btree entry may be).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import * as dropStoredSummaries from '../../src/db/migrations/2026-11-26-0900-drop-stored-summaries.ts';
import * as projectSummaryIndexes from '../../src/db/migrations/2026-11-25-0900-project-summary-indexes.ts';
import { accountWithReports } from '../support/repository-fixtures.ts';
import { indexColumns, sqliteAnalyzedIndexes as analyzedIndexes, sqliteStatisticsTables as statisticsTables } from '../support/schema.ts';
import { seededBeforeOrganizations } from '../support/migration-fixtures.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const INDEXES: Record<string, string[]> = {
  reports_user_project_summary_idx: ['user_id', 'project', 'id', 'summary_json'],
  reports_user_project_rank_url_summary_idx: ['user_id', 'project', 'result_rank', 'url', 'id', 'summary_json'],
};
/** The narrow indexes a deep page finds its ids in stay as they were. */
const NARROW = {
  reports_user_project_idx: ['user_id', 'project', 'id', 'url_lower'],
  reports_user_project_rank_url_idx: ['user_id', 'project', 'result_rank', 'url', 'id', 'url_lower'],
};

describe.each(testDialects())('project summary indexes [%s]', (dialect) => {
  it(dialect === 'sqlite' ? 'up makes both indexes, down drops them, and no report is lost' : 'makes no index on PostgreSQL, up or down', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await seededBeforeOrganizations(db, (seeded) => accountWithReports(seeded));
      // The schema as it was before the stored summaries were dropped again.
      await dropStoredSummaries.down(db);
      const reports = async () => db.selectFrom('reports').select(['id', 'project', 'summary_json']).orderBy('id').execute();
      const stored = await reports();
      const made = async () => Object.fromEntries(await Promise.all(Object.keys(INDEXES).map(async (name) => [name, await indexColumns(db, dialect, name)])));
      const none = Object.fromEntries(Object.keys(INDEXES).map((name) => [name, []]));

      expect(await made()).toEqual(dialect === 'sqlite' ? INDEXES : none);
      for (const [index, columns] of Object.entries(NARROW)) expect(await indexColumns(db, dialect, index)).toEqual(columns);

      await projectSummaryIndexes.down(db);
      expect(await made()).toEqual(none);
      expect(await reports()).toEqual(stored);

      await projectSummaryIndexes.up(db);
      expect(await made()).toEqual(dialect === 'sqlite' ? INDEXES : none);
      expect(await reports()).toEqual(stored);
    });
  });

  it.runIf(dialect === 'sqlite')('gives the new indexes SQLite statistics where ANALYZE made some, and makes none otherwise', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await seededBeforeOrganizations(db, (seeded) => accountWithReports(seeded));
      await dropStoredSummaries.down(db);
      await projectSummaryIndexes.down(db);
      await projectSummaryIndexes.up(db);
      expect(await statisticsTables(db)).toEqual([]);

      await projectSummaryIndexes.down(db);
      await sql`analyze`.execute(db);
      expect(await analyzedIndexes(db)).not.toEqual(expect.arrayContaining(Object.keys(INDEXES)));
      await projectSummaryIndexes.up(db);
      expect(await analyzedIndexes(db)).toEqual(expect.arrayContaining(Object.keys(INDEXES)));
    });
  });
});
