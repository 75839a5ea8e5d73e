// Structured data: up gives every run a `structured_data` column, null for the runs made before it
// (their reports show `structured_data: null`); down takes it away and keeps the runs.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as runStructuredData from '../../src/db/migrations/2026-12-04-1000-run-structured-data.ts';
import { tableColumns } from '../support/schema.ts';
import { insertReportWithRun } from '../support/migration-fixtures.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-12-04T10:00:00.000Z';

describe.each(testDialects())('run structured data migration [%s]', (dialect) => {
  it('up: earlier runs have none (null), a new run keeps its structured data; down: the column goes, the runs stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-12-03-1200-crawl-lab');
      const { run } = await insertReportWithRun(db, NOW);

      await runStructuredData.up(db);
      const structured = JSON.stringify({ schema_org_version: '30.0', items: [], rich_results: [], errors: 0, warnings: 0, validation_errors: 1 });
      await db.insertInto('report_runs').values({ ...run, number: 2, structured_data: structured }).execute();
      expect(await db.selectFrom('report_runs').select(['number', 'structured_data']).orderBy('number').execute()).toEqual([
        { number: 1, structured_data: null },
        { number: 2, structured_data: structured },
      ]);

      await runStructuredData.down(db);
      expect(await tableColumns(db, dialect, 'report_runs')).not.toContain('structured_data');
      expect(await db.selectFrom('report_runs').select('number').orderBy('number').execute()).toEqual([{ number: 1 }, { number: 2 }]);
    });
  });
});
