// Schedules: up gives every report the schedule `off` and no next run, and an index of the scheduled
// ones; down takes both columns away again and keeps the reports.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as reportSchedules from '../../src/db/migrations/2026-11-27-1100-report-schedules.ts';
import { indexColumns, tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-27T11:00:00.000Z';

describe.each(testDialects())('report schedules migration [%s]', (dialect) => {
  it('up: every report off, no next run; down: the columns go, the reports stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-11-27-1000-report-runs');
      const { id: userId } = await db.insertInto('users').values({ email: 's@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      await db
        .insertInto('reports')
        .values({ user_id: userId, url: 'https://a.com/', url_lower: 'https://a.com/', project: 'a.com', privacy: 0, result_rank: -1, state: 'queued', created_at: NOW, updated_at: NOW })
        .execute();

      await reportSchedules.up(db);
      expect(await db.selectFrom('reports').select(['url', 'schedule', 'next_run_at']).execute()).toEqual([
        { url: 'https://a.com/', schedule: 'off', next_run_at: null },
      ]);
      expect(await indexColumns(db, dialect, 'reports_next_run_at_idx')).toEqual(['next_run_at']);

      await reportSchedules.down(db);
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('schedule');
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('next_run_at');
      expect(await db.selectFrom('reports').select('url').execute()).toEqual([{ url: 'https://a.com/' }]);
    });
  });
});
