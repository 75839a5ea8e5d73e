// Job generations (docs/production.md, "When the queue loses jobs"): up gives jobs a unique key, and
// reports and crawls their job generation (0 for the rows made before it) with the partial index the
// sweep reads; down takes it all away and keeps the rows.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as jobGenerations from '../../src/db/migrations/2026-11-30-0900-job-generations.ts';
import { indexColumns, tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-30T09:00:00.000Z';

describe.each(testDialects())('job generations migration [%s]', (dialect) => {
  it('up: earlier rows are generation 0 and keys are unique; down: the columns go, the rows stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-11-28-1200-report-score-sort');
      const { id: userId } = await db.insertInto('users').values({ email: 'g@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      await db
        .insertInto('reports')
        .values({ user_id: userId, url: 'https://a.com/', url_lower: 'https://a.com/', project: 'a.com', privacy: 0, result_rank: -1, state: 'queued', created_at: NOW, updated_at: NOW })
        .execute();
      await db
        .insertInto('crawls')
        .values({ user_id: userId, url: 'https://a.com/', project: 'a.com', state: 'running', max_pages: 5, max_depth: 2, use_sitemap: 0, privacy: 0, render: 0, created_at: NOW })
        .execute();
      const job = { kind: 'report.analyse', payload: '{}', state: 'queued', run_at: NOW, created_at: NOW, updated_at: NOW };
      await db.insertInto('jobs').values(job).execute();

      await jobGenerations.up(db);
      expect(await db.selectFrom('reports').select(['job_generation', 'job_attempt', 'job_trigger', 'job_render']).execute()).toEqual([
        { job_generation: 0, job_attempt: 0, job_trigger: null, job_render: 0 },
      ]);
      expect(await db.selectFrom('crawls').select(['job_generation', 'jobs_queued_at']).execute()).toEqual([{ job_generation: 0, jobs_queued_at: null }]);
      expect(await indexColumns(db, dialect, 'reports_in_progress_updated_idx')).toEqual(['updated_at', 'id']);
      expect(await indexColumns(db, dialect, 'jobs_key_idx')).toEqual(['key']);
      // Jobs without a key are as many as they like; a key is there once.
      await db.insertInto('jobs').values(job).execute();
      await db.insertInto('jobs').values({ ...job, key: 'report-1-1' }).execute();
      await expect(db.insertInto('jobs').values({ ...job, key: 'report-1-1' }).execute()).rejects.toThrow();

      await jobGenerations.down(db);
      expect(await tableColumns(db, dialect, 'jobs')).not.toContain('key');
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('job_generation');
      expect(await tableColumns(db, dialect, 'crawls')).not.toContain('jobs_queued_at');
      expect(await indexColumns(db, dialect, 'reports_in_progress_updated_idx')).toEqual([]);
      const { rows } = await sql<{ count: number | string }>`select count(*) as count from jobs`.execute(db);
      expect(Number(rows[0].count)).toBe(3);
    });
  });
});
