// Rendering: up gives every run a `rendered` column, null for the runs made before it; down takes the
// column away and keeps the runs.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as reportRunRendered from '../../src/db/migrations/2026-11-28-1000-report-run-rendered.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-28T10:00:00.000Z';

describe.each(testDialects())('report run rendered migration [%s]', (dialect) => {
  it('up: earlier runs were not rendered (null), a new one keeps its JSON; down: the column goes, the runs stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-11-27-1100-report-schedules');
      const { id: userId } = await db.insertInto('users').values({ email: 'r@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      const { id: reportId } = await db
        .insertInto('reports')
        .values({ user_id: userId, url: 'https://a.com/', url_lower: 'https://a.com/', project: 'a.com', privacy: 0, result_rank: 2, result: 'good', score: 90, issues_high: 0, issues_medium: 0, issues_low: 1, page: '{}', generated_at: NOW, state: 'done', runs_count: 1, last_run_number: 1, created_at: NOW, updated_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow();
      const run = { report_id: reportId, trigger: 'create', result: 'good', score: 90, issues_high: 0, issues_medium: 0, issues_low: 1, page: '{}', results: '{}', generated_at: NOW };
      await db.insertInto('report_runs').values({ ...run, number: 1 }).execute();

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
