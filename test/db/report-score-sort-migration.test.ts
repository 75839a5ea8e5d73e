// The migration that lets the report list sort by score from an index: the four score indexes on both
// dialects (alone, with the project, the result, or both; url_lower last), PostgreSQL's two descending
// NULLS LAST ones, SQLite statistics where ANALYZE made some, and a down that drops them all and
// keeps every report.
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/database.ts';

import * as reportScoreSort from '../../src/db/migrations/2026-11-28-1200-report-score-sort.ts';
import { accountWithReports } from '../support/repository-fixtures.ts';
import { indexColumns, sqliteAnalyzedIndexes as analyzedIndexes, sqliteStatisticsTables as statisticsTables } from '../support/schema.ts';
import { seededBeforeOrganizations } from '../support/migration-fixtures.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const BOTH: Record<string, string[]> = {
  reports_user_score_idx: ['user_id', 'score', 'id', 'url_lower'],
  reports_user_rank_score_idx: ['user_id', 'result_rank', 'score', 'id', 'url_lower'],
  reports_user_project_score_idx: ['user_id', 'project', 'score', 'id', 'url_lower'],
  reports_user_project_rank_score_idx: ['user_id', 'project', 'result_rank', 'score', 'id', 'url_lower'],
};
const DESCENDING: Record<string, string[]> = {
  reports_user_score_desc_idx: ['user_id', 'score', 'id', 'url_lower'],
  reports_user_project_score_desc_idx: ['user_id', 'project', 'score', 'id', 'url_lower'],
};

/** PostgreSQL's definition of an index, as pg_indexes prints it. */
async function postgresDefinition(db: Kysely<any>, index: string): Promise<string> {
  const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = ${index} and schemaname = current_schema()`.execute(db);
  return rows[0]?.indexdef ?? '';
}

async function made(db: Kysely<any>, dialect: DialectName, indexes: Record<string, string[]>) {
  return Object.fromEntries(await Promise.all(Object.keys(indexes).map(async (name) => [name, await indexColumns(db, dialect, name)])));
}

const none = (indexes: Record<string, string[]>) => Object.fromEntries(Object.keys(indexes).map((name) => [name, []]));

describe.each(testDialects())('score sort indexes [%s]', (dialect) => {
  it('up makes the score indexes, down drops them, and no report is lost', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await seededBeforeOrganizations(db, (seeded) => accountWithReports(seeded));
      const reports = async () => db.selectFrom('reports').select(['id', 'score']).orderBy('id').execute();
      const stored = await reports();

      expect(await made(db, dialect, BOTH)).toEqual(BOTH);
      expect(await made(db, dialect, DESCENDING)).toEqual(dialect === 'postgres' ? DESCENDING : none(DESCENDING));
      if (dialect === 'postgres') {
        expect(await postgresDefinition(db, 'reports_user_score_desc_idx')).toMatch(/\(user_id, score DESC NULLS LAST, id DESC, url_lower\)$/);
        expect(await postgresDefinition(db, 'reports_user_score_idx')).toMatch(/\(user_id, score, id, url_lower\)$/);
      }

      await reportScoreSort.down(db);
      expect(await made(db, dialect, { ...BOTH, ...DESCENDING })).toEqual(none({ ...BOTH, ...DESCENDING }));
      expect(await reports()).toEqual(stored);

      await reportScoreSort.up(db);
      expect(await made(db, dialect, BOTH)).toEqual(BOTH);
      expect(await reports()).toEqual(stored);
    });
  });

  it.runIf(dialect === 'sqlite')('gives the new indexes SQLite statistics where ANALYZE made some, and makes none otherwise', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await seededBeforeOrganizations(db, (seeded) => accountWithReports(seeded));
      await reportScoreSort.down(db);
      await reportScoreSort.up(db);
      expect(await statisticsTables(db)).toEqual([]);

      await reportScoreSort.down(db);
      await sql`analyze`.execute(db);
      expect(await analyzedIndexes(db)).not.toEqual(expect.arrayContaining(Object.keys(BOTH)));
      await reportScoreSort.up(db);
      expect(await analyzedIndexes(db)).toEqual(expect.arrayContaining(Object.keys(BOTH)));
    });
  });
});
