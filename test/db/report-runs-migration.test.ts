// Every analysis kept: up makes each analysed report's results its run 1 (trigger create, the
// report's summary and generated_at), counts it on the report, and drops report_results; a report
// still waiting for its first analysis gets no run. Down puts each report's latest run's results back.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as reportRuns from '../../src/db/migrations/2026-11-27-1000-report-runs.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-27T10:00:00.000Z';

describe.each(testDialects())('report runs migration [%s]', (dialect) => {
  it('makes each analysed report its first run, and down gives each report its latest results back', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-11-27-0900-report-analysis-state');
      const { id: userId } = await db.insertInto('users').values({ email: 'runs@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      const base = { user_id: userId, project: 'a.com', privacy: 0, created_at: NOW, updated_at: NOW };
      const analysed = (url: string, score: number) => ({
        ...base, url, url_lower: url, result: 'good', result_rank: 2, score, issues_high: 0, issues_medium: 1, issues_low: 2,
        page: `{"final_url":"${url}"}`, generated_at: NOW,
      });
      const ids: number[] = [];
      for (const [url, score] of [['https://a.com/1', 81], ['https://a.com/2', 92]] as const) {
        const { id } = await db.insertInto('reports').values(analysed(url, score)).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('report_results').values({ report_id: id, results: `{"score":${score}}` }).execute();
        ids.push(id);
      }
      const { id: waiting } = await db
        .insertInto('reports')
        .values({ ...base, url: 'https://a.com/3', url_lower: 'https://a.com/3', result_rank: -1, state: 'queued' })
        .returning('id')
        .executeTakeFirstOrThrow();

      await reportRuns.up(db);
      expect(await tableColumns(db, dialect, 'report_results')).toEqual([]);
      const runs = await db.selectFrom('report_runs').selectAll().orderBy('report_id').execute();
      expect(runs.map(({ id: _id, ...run }) => run)).toEqual(
        ids.map((id, index) => ({
          report_id: id, number: 1, trigger: 'create', result: 'good', score: [81, 92][index],
          issues_high: 0, issues_medium: 1, issues_low: 2, page: `{"final_url":"https://a.com/${index + 1}"}`,
          results: `{"score":${[81, 92][index]}}`, generated_at: NOW,
        })),
      );
      const counters = await db.selectFrom('reports').select(['id', 'runs_count', 'last_run_number']).orderBy('id').execute();
      expect(counters).toEqual([
        { id: ids[0], runs_count: 1, last_run_number: 1 },
        { id: ids[1], runs_count: 1, last_run_number: 1 },
        { id: waiting, runs_count: 0, last_run_number: 0 },
      ]);
      // A report's run numbers are its own: the second run of a report is a new row, number 2.
      await db.insertInto('report_runs').values({ ...runs[0], id: undefined, number: 2, results: '{"score":70}', trigger: 'regenerate' }).execute();
      await db.updateTable('reports').set({ last_run_number: 2, runs_count: 2 }).where('id', '=', ids[0]).execute();
      await expect(db.insertInto('report_runs').values({ ...runs[0], id: undefined }).execute()).rejects.toThrow();
      await expect(db.insertInto('report_runs').values({ ...runs[0], id: undefined, number: 9, trigger: 'manual' }).execute()).rejects.toThrow(/check/i);

      await reportRuns.down(db);
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('runs_count');
      expect(await db.selectFrom('report_results').selectAll().orderBy('report_id').execute()).toEqual([
        { report_id: ids[0], results: '{"score":70}' },
        { report_id: ids[1], results: '{"score":92}' },
      ]);
    });
  });
});
