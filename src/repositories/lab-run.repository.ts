// A run that gets its lab audit after it was stored: a lab crawl audits the pages it chose once every
// page is in (docs/lab.md, "Lab audits of a crawl"), and the audit becomes part of the page's run of
// that crawl. Its results, score, issue counts, `lab` and `lab_profile` are replaced in place (no
// second run); the report's row, which repeats its latest run's summary for lists, follows when that
// run is still its latest. Callers run these in a transaction that took the report's project row.
import type { ReportResult } from '../db/tables/report.table.ts';
import { RESULT_RANK } from '../db/tables/report.table.ts';
import type { ReportRunRow } from '../db/tables/report-run.table.ts';
import type { DbExecutor } from './executor.ts';

/** The run's columns a re-scored analysis replaces. */
export type RescoredRun = Pick<ReportRunRow, 'results' | 'score' | 'result' | 'issues_high' | 'issues_medium' | 'issues_low' | 'lab' | 'lab_profile'>;

/** The run `number` of the report, with what a re-score reads; undefined when it is no longer kept. */
export async function findRunResults(db: DbExecutor, reportId: number, number: number) {
  return db
    .selectFrom('report_runs')
    .select(['id', 'results', 'result'])
    .where('report_id', '=', reportId)
    .where('number', '=', number)
    .executeTakeFirst();
}

export async function replaceRunAnalysis(db: DbExecutor, runId: number, run: RescoredRun): Promise<void> {
  await db.updateTable('report_runs').set(run).where('id', '=', runId).execute();
}

/** The report's summary columns, for the run it shows as its latest (stamped: the report changed). */
export async function replaceLatestSummary(
  db: DbExecutor,
  organizationId: number,
  reportId: number,
  summary: { score: number; result: ReportResult; issues_high: number; issues_medium: number; issues_low: number },
  now: string,
): Promise<void> {
  await db
    .updateTable('reports')
    .set({ ...summary, result_rank: RESULT_RANK[summary.result], updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', reportId)
    .execute();
}
