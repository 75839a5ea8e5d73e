// Storing a run on a report: the analysis columns, the state `done`, and its project's verdict
// counts, in one transaction with the project's row locked first. The request path (create,
// results=1) and the background job share it, so both keep the counts the same way.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { RunTrigger } from '../db/tables/report-run.table.ts';
import type { Analysis, Verdict } from '../analysis/types.ts';
import * as reportRepository from '../repositories/report.repository.ts';
import type { ReportListRow } from '../repositories/report.repository.ts';
import { adjustProjectCounts, lockProject } from '../repositories/project.repository.ts';
import { NotFoundError } from './errors.ts';

/** A report is being analysed while its latest analysis is queued or running; otherwise it has settled. */
export const ANALYSIS_IN_PROGRESS = ['queued', 'running'] as const;
export const ANALYSIS_SETTLED = ['done', 'failed'] as const;

/** A report entering or leaving its project: the count, and its verdict's tally when it has one. */
export function countsDelta(result: string | null, sign: 1 | -1) {
  return {
    reports: sign,
    good: result === 'good' ? sign : 0,
    decent: result === 'decent' ? sign : 0,
    bad: result === 'bad' ? sign : 0,
  };
}

/** One report changing verdict (or getting its first): the project keeps its count and moves one tally. */
export function verdictMoved(from: string | null, to: Verdict) {
  const removed = countsDelta(from, -1);
  const added = countsDelta(to, 1);
  return { reports: 0, good: removed.good + added.good, decent: removed.decent + added.decent, bad: removed.bad + added.bad };
}

/** How a service stores runs: why this one was made, and how many of a report's to keep. */
export interface RunOptions {
  trigger: RunTrigger;
  keep: number;
}

export function analysisColumns(analysis: Analysis) {
  return {
    result: analysis.result,
    score: analysis.score,
    issues_high: analysis.issues.high,
    issues_medium: analysis.issues.medium,
    issues_low: analysis.issues.low,
    page: JSON.stringify(analysis.page),
    results: JSON.stringify(analysis.results),
    rendered: analysis.rendered === undefined ? null : JSON.stringify(analysis.rendered),
    generated_at: analysis.generatedAt.toISOString(),
  };
}

/**
 * The report as it is once its project's row is locked (see lockProject), so a project delete or
 * another change to the project's reports cannot interleave with the caller's.
 */
export async function lockedReport(trx: Kysely<Database>, userId: number, id: number, project?: string): Promise<ReportListRow> {
  // A report's url, and so its project, never changes: a caller that read it already skips a read.
  if (project === undefined) {
    const seen = await reportRepository.findReportRow(trx, userId, id);
    if (!seen) throw new NotFoundError();
    project = seen.project;
  }
  await lockProject(trx, userId, project);
  const current = await reportRepository.findReportRow(trx, userId, id);
  if (!current) throw new NotFoundError();
  return current;
}

/**
 * Stores `analysis` as the report's latest run (with `patch`, e.g. a privacy change sent beside
 * results=1) and marks it done. NotFoundError when the report went meanwhile.
 */
export async function storeRun(
  db: Kysely<Database>,
  userId: number,
  id: number,
  analysis: Analysis,
  options: RunOptions & { patch?: Omit<reportRepository.ReportPatch, 'updated_at'>; project?: string },
): Promise<void> {
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    const current = await lockedReport(trx, userId, id, options.project);
    const patch = { ...options.patch, state: 'done' as const, last_error: null, updated_at: now };
    await reportRepository.addRun(trx, current, { ...analysisColumns(analysis), trigger: options.trigger }, { keep: options.keep, patch });
    if (analysis.result !== current.result) {
      await adjustProjectCounts(trx, userId, current.project, verdictMoved(current.result, analysis.result), now);
    }
  });
}
