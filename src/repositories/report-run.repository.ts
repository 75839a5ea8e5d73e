// A report's runs (report_runs). Callers check first that the report is the account's: runs are
// reached only through their report.
import type { DbExecutor } from './executor.ts';
import type { ReportRunRow } from '../db/tables/report-run.table.ts';

/** A list item: the run without its page facts and results. */
export type RunListRow = Omit<ReportRunRow, 'page' | 'results'>;

/** The report's runs, newest first. */
export async function listRuns(db: DbExecutor, reportId: number, window: { limit: number; offset: number }): Promise<RunListRow[]> {
  return db
    .selectFrom('report_runs')
    .select(['id', 'report_id', 'number', 'trigger', 'result', 'score', 'issues_high', 'issues_medium', 'issues_low', 'generated_at'])
    .where('report_id', '=', reportId)
    .orderBy('number', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

export async function findRun(db: DbExecutor, reportId: number, runId: number): Promise<ReportRunRow | undefined> {
  return db.selectFrom('report_runs').selectAll().where('report_id', '=', reportId).where('id', '=', runId).executeTakeFirst();
}

/** The report's newest run, or its newest before run number `before`. */
export async function latestRun(db: DbExecutor, reportId: number, before?: number): Promise<ReportRunRow | undefined> {
  let query = db.selectFrom('report_runs').selectAll().where('report_id', '=', reportId);
  if (before !== undefined) query = query.where('number', '<', before);
  return query.orderBy('number', 'desc').limit(1).executeTakeFirst();
}
