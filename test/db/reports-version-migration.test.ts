// The counts version becomes the reports version: a rename that keeps every account's value, both ways.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';

// The schema as it was before organisations renamed the owner columns (this test's migration is older).
const BEFORE_ORGANIZATIONS = '2026-12-04-1100-crawl-rich-result-errors';
import * as dropStoredSummaries from '../../src/db/migrations/2026-11-26-0900-drop-stored-summaries.ts';
import * as reportsVersion from '../../src/db/migrations/2026-11-24-0900-reports-version.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

describe.each(testDialects())('reports version migration [%s]', (dialect) => {
  it('renames report_counts_version to reports_version keeping its values, and down renames it back', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, BEFORE_ORGANIZATIONS);
      // The schema as it was before the stored summaries were dropped again.
      await dropStoredSummaries.down(db);
      const { id } = await db
        .insertInto('users')
        .values({ email: 'a@example.com', is_admin: 0, created_at: '2026-11-24T09:00:00.000Z', reports_version: 41 })
        .returning('id')
        .executeTakeFirstOrThrow();

      await reportsVersion.down(db);
      expect(await tableColumns(db, dialect, 'users')).not.toContain('reports_version');
      expect(await db.selectFrom('users').select(['id', 'report_counts_version']).execute()).toEqual([{ id, report_counts_version: 41 }]);

      await reportsVersion.up(db);
      expect(await tableColumns(db, dialect, 'users')).not.toContain('report_counts_version');
      expect(await db.selectFrom('users').select(['id', 'reports_version']).execute()).toEqual([{ id, reports_version: 41 }]);
    });
  });
});
