// A report's runs (report_runs). Callers check first that the report is the account's: runs are
// reached only through their report.
import type { DbExecutor } from './executor.ts';
import type { ReportRunRow } from '../db/tables/report-run.table.ts';

/** A list item: the run without its page facts, results, rendering and lab audit. */
export type RunListRow = Omit<ReportRunRow, 'page' | 'results' | 'rendered' | 'lab' | 'lab_profile' | 'structured_data'>;

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

/**
 * The score of the run before each report's latest, for the account's reports among `reportIds` (a
 * list page's): one query, each report's row joined to one run by the (report_id, number) unique
 * index. Run numbers are never reused or skipped, so the previous run is number last_run_number - 1;
 * a report without one (a single run, or the older runs no longer kept) is left out.
 */
export async function previousRunScores(db: DbExecutor, organizationId: number, reportIds: readonly number[]): Promise<{ report_id: number; score: number }[]> {
  if (reportIds.length === 0) return [];
  return db
    .selectFrom('reports')
    .innerJoin('report_runs', (join) =>
      join.onRef('report_runs.report_id', '=', 'reports.id').on((eb) => eb('report_runs.number', '=', eb('reports.last_run_number', '-', 1))),
    )
    .select(['report_runs.report_id', 'report_runs.score'])
    .where('reports.organization_id', '=', organizationId)
    .where('reports.id', 'in', reportIds)
    .execute();
}
