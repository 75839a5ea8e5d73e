// Lab audits: up gives every run a `lab` and a `lab_profile` column and every report a `job_lab`, null
// for what was made before it; the profiles are mobile or desktop, nothing else; down takes the columns
// away and keeps the runs and reports.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as runLab from '../../src/db/migrations/2026-12-03-1100-run-lab.ts';
import { tableColumns } from '../support/schema.ts';
import { insertReportWithRun } from '../support/migration-fixtures.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-12-03T11:00:00.000Z';

describe.each(testDialects())('run lab migration [%s]', (dialect) => {
  it('up: earlier runs and reports have none (null), a new run keeps its lab and profile; down: the columns go, the rows stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-12-03-1000-crawl-list-mode');
      const { reportId, run } = await insertReportWithRun(db, NOW);

      await runLab.up(db);
      const lab = JSON.stringify({ profile: 'desktop', metrics: { lcp_ms: 900 } });
      await db.insertInto('report_runs').values({ ...run, number: 2, lab, lab_profile: 'desktop' }).execute();
      // A failed audit: no lab, but the profile it was asked under.
      await db.insertInto('report_runs').values({ ...run, number: 3, lab: null, lab_profile: 'mobile' }).execute();
      expect(await db.selectFrom('report_runs').select(['number', 'lab', 'lab_profile']).orderBy('number').execute()).toEqual([
        { number: 1, lab: null, lab_profile: null },
        { number: 2, lab, lab_profile: 'desktop' },
        { number: 3, lab: null, lab_profile: 'mobile' },
      ]);
      expect(await db.selectFrom('reports').select('job_lab').execute()).toEqual([{ job_lab: null }]);
      await db.updateTable('reports').set({ job_lab: 'mobile' }).execute();
      await expect(db.insertInto('report_runs').values({ ...run, number: 4, lab_profile: 'tablet' }).execute()).rejects.toThrow();
      await expect(db.updateTable('reports').set({ job_lab: 'Mobile' }).execute()).rejects.toThrow();

      await runLab.down(db);
      expect(await tableColumns(db, dialect, 'report_runs')).not.toContain('lab');
      expect(await tableColumns(db, dialect, 'report_runs')).not.toContain('lab_profile');
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('job_lab');
      expect(await db.selectFrom('report_runs').select('number').orderBy('number').execute()).toEqual([{ number: 1 }, { number: 2 }, { number: 3 }]);
      expect(await db.selectFrom('reports').select('id').execute()).toEqual([{ id: reportId }]);
    });
  });
});
