// Rows a migration test puts in before the migration it tests: a user's report with one run, in the
// columns every schema since report_runs has had.
import type { Kysely } from 'kysely';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.ts';

/** A done report with its first run stored; `run` is that run's row without its number, for more runs like it. */
export async function insertReportWithRun(db: Kysely<any>, now: string) {
  const { id: userId } = await db.insertInto('users').values({ email: 'r@example.com', is_admin: 0, created_at: now }).returning('id').executeTakeFirstOrThrow();
  const { id: reportId } = await db
    .insertInto('reports')
    .values({ user_id: userId, url: 'https://a.com/', url_lower: 'https://a.com/', project: 'a.com', privacy: 0, result_rank: 2, result: 'good', score: 90, issues_high: 0, issues_medium: 0, issues_low: 1, page: '{}', generated_at: now, state: 'done', runs_count: 1, last_run_number: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const run = { report_id: reportId, trigger: 'create', result: 'good', score: 90, issues_high: 0, issues_medium: 0, issues_low: 1, page: '{}', results: '{}', generated_at: now };
  await db.insertInto('report_runs').values({ ...run, number: 1 }).execute();
  return { reportId: reportId as number, run };
}

/**
 * The schema before organisations, holding what `seed` stores through today's repositories: the
 * latest schema seeded, then migrated down to before organisations (its own test shows down keeps the
 * rows). For tests of older migrations whose fixtures are written against today's tables.
 */
export async function seededBeforeOrganizations(db: Kysely<any>, seed: (db: Kysely<any>) => Promise<unknown>): Promise<void> {
  await migrateToLatest(db);
  await seed(db);
  // Down to the schema before it: organisations, and every later migration first.
  await migrateTo(db, '2026-12-04-1100-crawl-rich-result-errors');
}
