// Rendering: up gives every run a `rendered` column, null for the runs made before it; down takes the
// column away and keeps the runs.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as reportRunRendered from '../../src/db/migrations/2026-11-28-1000-report-run-rendered.ts';
import { tableColumns } from '../support/schema.ts';
import { insertReportWithRun } from '../support/migration-fixtures.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-28T10:00:00.000Z';

describe.each(testDialects())('report run rendered migration [%s]', (dialect) => {
  it('up: earlier runs were not rendered (null), a new one keeps its JSON; down: the column goes, the runs stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-11-27-1100-report-schedules');
      const { run } = await insertReportWithRun(db, NOW);

      await reportRunRendered.up(db);
      const rendered = JSON.stringify({ error: 'The browser crashed while rendering the page.' });
      await db.insertInto('report_runs').values({ ...run, number: 2, rendered }).execute();
      expect(await db.selectFrom('report_runs').select(['number', 'rendered']).orderBy('number').execute()).toEqual([
        { number: 1, rendered: null },
        { number: 2, rendered },
      ]);

      await reportRunRendered.down(db);
      expect(await tableColumns(db, dialect, 'report_runs')).not.toContain('rendered');
      expect(await db.selectFrom('report_runs').select('number').orderBy('number').execute()).toEqual([{ number: 1 }, { number: 2 }]);
    });
  });
});
