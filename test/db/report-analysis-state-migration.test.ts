// The report analysis state: up keeps every report, its results, its id and the id counter, adds
// state (done for what exists) and last_error, and lets a report exist without a run (all of a run's
// columns null together, result_rank -1) in a project that counts it without a verdict; down removes
// such reports and restores the old rules.
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as reportAnalysisState from '../../src/db/migrations/2026-11-27-0900-report-analysis-state.ts';
import { indexColumns, tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-27T09:00:00.000Z';

function runlessReport(userId: number, url: string) {
  return {
    user_id: userId,
    url,
    url_lower: url.toLowerCase(),
    project: new URL(url).host,
    privacy: 0,
    result_rank: -1,
    state: 'queued',
    created_at: NOW,
    updated_at: NOW,
  };
}

async function projectCounts(db: Kysely<any>, userId: number) {
  return db
    .selectFrom('projects')
    .select(['name', 'reports_count', 'good_count'])
    .where('user_id', '=', userId)
    .orderBy('name')
    .execute();
}

/** Three reports with their results as the schema before this migration held them; the account's id. */
async function oldReports(db: Kysely<any>): Promise<number> {
  const { id: userId } = await db.insertInto('users').values({ email: 'old@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
  for (const url of ['https://a.com/', 'https://a.com/pricing', 'https://b.com/']) {
    const { id } = await db
      .insertInto('reports')
      .values({
        user_id: userId, url, url_lower: url, project: new URL(url).host, privacy: 0, password_hash: null,
        result: 'good', result_rank: 2, score: 90, issues_high: 0, issues_medium: 1, issues_low: 2,
        page: '{"status_code":200}', generated_at: NOW, created_at: NOW, updated_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('report_results').values({ report_id: id, results: '{"title":{"passed":true}}' }).execute();
  }
  return userId;
}

describe.each(testDialects())('report analysis state migration [%s]', (dialect) => {
  it('up keeps every report and its results; a report may then wait for its first run', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-11-27-0900-report-analysis-state');
      await reportAnalysisState.down(db);
      const userId = await oldReports(db);
      const project = (name: string, count: number) => ({
        user_id: userId, name, name_lower: name, reports_count: count, good_count: count, decent_count: 0, bad_count: 0,
        created_at: NOW, updated_at: NOW,
      });
      await db.insertInto('projects').values([project('a.com', 2), project('b.com', 1)]).execute();
      const ids = (await db.selectFrom('reports').select('id').orderBy('id').execute()).map((row) => row.id);
      // The newest report goes before the migration: its id must never be given out again.
      await db.deleteFrom('reports').where('id', '=', ids[2]).execute();
      await db.updateTable('projects').set({ reports_count: 0, good_count: 0 }).where('name', '=', 'b.com').execute();
      const before = await db.selectFrom('reports').selectAll().orderBy('id').execute();

      await reportAnalysisState.up(db);
      const after = await db.selectFrom('reports').selectAll().orderBy('id').execute();
      expect(after).toEqual(before.map((row) => ({ ...row, state: 'done', last_error: null })));
      expect(await db.selectFrom('report_results').select('report_id').orderBy('report_id').execute()).toEqual(
        before.map((row) => ({ report_id: row.id })),
      );
      expect(await indexColumns(db, dialect, 'reports_user_state_idx')).toEqual(['user_id', 'state', 'id', 'url_lower']);
      expect(await indexColumns(db, dialect, 'reports_user_project_rank_url_idx')).toEqual([
        'user_id', 'project', 'result_rank', 'url', 'id', 'url_lower',
      ]);
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
        expect(rows).toEqual([{ foreign_keys: 1 }]);
      }

      const { id } = await db.insertInto('reports').values(runlessReport(userId, 'https://a.com/new')).returning('id').executeTakeFirstOrThrow();
      expect(id).toBeGreaterThan(ids[2]);
      await db.updateTable('projects').set({ reports_count: 3 }).where('name', '=', 'a.com').execute();
      expect(await projectCounts(db, userId)).toEqual([
        { name: 'a.com', reports_count: 3, good_count: 2 },
        { name: 'b.com', reports_count: 0, good_count: 0 },
      ]);
      // Half a run, a verdict without its rank, or an unknown state breaks a rule.
      await expect(
        db.insertInto('reports').values({ ...runlessReport(userId, 'https://a.com/half'), score: 50 }).execute(),
      ).rejects.toThrow(/check/i);
      await expect(db.updateTable('reports').set({ result_rank: -1 }).where('id', '=', ids[0]).execute()).rejects.toThrow(/check/i);
      await expect(db.updateTable('reports').set({ state: 'paused' }).where('id', '=', ids[0]).execute()).rejects.toThrow(/check/i);
      // The foreign key still holds: deleting a report deletes its results.
      await db.deleteFrom('reports').where('id', '=', ids[0]).execute();
      expect(await db.selectFrom('report_results').select('report_id').execute()).toEqual([{ report_id: ids[1] }]);
      await db.updateTable('projects').set({ reports_count: 2, good_count: 1 }).where('name', '=', 'a.com').execute();

      await reportAnalysisState.down(db);
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('state');
      expect((await db.selectFrom('reports').select('id').execute()).map((row) => row.id)).toEqual([ids[1]]);
      expect(await projectCounts(db, userId)).toEqual([{ name: 'a.com', reports_count: 1, good_count: 1 }]);
      await expect(
        db.insertInto('reports').values({ ...runlessReport(userId, 'https://a.com/again'), state: undefined }).execute(),
      ).rejects.toThrow();
      await reportAnalysisState.up(db);
      expect(await tableColumns(db, dialect, 'reports')).toContain('last_error');
    });
  });
});
