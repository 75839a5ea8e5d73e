// Dropping the stored list items: up removes the columns, their SQLite indexes and the reports version
// and keeps every report and project; down brings them back filled in as the older code wrote them.
import { describe, expect, it } from 'vitest';

import * as dropStoredSummaries from '../../src/db/migrations/2026-11-26-0900-drop-stored-summaries.ts';
import { accountWithReports } from '../support/repository-fixtures.ts';
import { indexColumns, tableColumns } from '../support/schema.ts';
import { seededBeforeOrganizations } from '../support/migration-fixtures.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const SUMMARY_INDEXES = ['reports_user_id_summary_idx', 'reports_user_project_summary_idx', 'reports_user_project_rank_url_summary_idx'];

describe.each(testDialects())('dropping the stored summaries [%s]', (dialect) => {
  it('up drops the columns and indexes and keeps every row; down restores them filled in', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await seededBeforeOrganizations(db, (seeded) => accountWithReports(seeded));
      const reports = async () => db.selectFrom('reports').select(['id', 'url', 'result', 'page']).orderBy('id').execute();
      const projects = async () => db.selectFrom('projects').select(['id', 'name', 'reports_count']).orderBy('id').execute();
      const [reportsBefore, projectsBefore] = [await reports(), await projects()];
      const summaryIndexes = async () => (await Promise.all(SUMMARY_INDEXES.map((name) => indexColumns(db, dialect, name)))).flat();
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('summary_json');
      expect(await tableColumns(db, dialect, 'users')).not.toContain('reports_version');
      expect(await summaryIndexes()).toEqual([]);

      await dropStoredSummaries.down(db);
      const stored = await db.selectFrom('reports').select(['url', 'summary_json']).orderBy('id').execute();
      for (const { url, summary_json } of stored) {
        expect(JSON.parse(summary_json)).toMatchObject({ url, project: new URL(url).host, password: false, page: { status_code: 200 } });
      }
      const projectSummaries = await db.selectFrom('projects').select(['name', 'summary_json']).orderBy('id').execute();
      for (const { name, summary_json } of projectSummaries) expect(JSON.parse(summary_json)).toMatchObject({ project: name });
      expect(await db.selectFrom('users').select('reports_version').execute()).toEqual([{ reports_version: 0 }]);
      expect((await summaryIndexes()).length).toBe(dialect === 'sqlite' ? 13 : 0);

      await dropStoredSummaries.up(db);
      expect(await tableColumns(db, dialect, 'projects')).not.toContain('summary_json');
      expect(await summaryIndexes()).toEqual([]);
      expect(await reports()).toEqual(reportsBefore);
      expect(await projects()).toEqual(projectsBefore);
    });
  });
});
