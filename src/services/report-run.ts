// Storing a run on a report: the analysis columns, the state `done`, and its project's verdict
// counts, in one transaction with the project's row locked first. The request path (create,
// results=1) and the background job share it, so both keep the counts the same way.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { RunTrigger } from '../db/tables/report-run.table.ts';
import type { Analysis, Verdict } from '../analysis/types.ts';
import { packResults } from '../analysis/packed-results.ts';
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
function verdictMoved(from: string | null, to: Verdict) {
  const removed = countsDelta(from, -1);
  const added = countsDelta(to, 1);
  return { reports: 0, good: removed.good + added.good, decent: removed.decent + added.decent, bad: removed.bad + added.bad };
}

/** How a service stores runs: why this one was made, and how many of a report's to keep. */
export interface RunOptions {
  trigger: RunTrigger;
  keep: number;
}

function analysisColumns(analysis: Analysis) {
  return {
    result: analysis.result,
    score: analysis.score,
    issues_high: analysis.issues.high,
    issues_medium: analysis.issues.medium,
    issues_low: analysis.issues.low,
    page: JSON.stringify(analysis.page),
    results: analysis.packedResults ?? packResults(analysis.results),
    rendered: analysis.rendered === undefined ? null : JSON.stringify(analysis.rendered),
    // Null without a lab audit and for one that could not observe the page; its profile either way.
    lab: analysis.lab ? JSON.stringify(analysis.lab) : null,
    lab_profile: analysis.labProfile ?? null,
    structured_data: analysis.structuredData ? JSON.stringify(analysis.structuredData) : null,
    generated_at: analysis.generatedAt.toISOString(),
  };
}

/** A report's run columns before its first run: all null (result_rank follows from result). */
const NO_RUN = {
  result: null,
  score: null,
  issues_high: null,
  issues_medium: null,
  issues_low: null,
  page: null,
  results: null,
  generated_at: null,
};

export interface NewReport {
  organizationId: number;
  url: string;
  project: string;
  privacy: number;
  passwordHash: string | null;
  scheduling: { schedule: string; next_run_at: string | null };
}

/** A new report's row: done with its first run when `analysis` is given, else queued for one. */
export function newReportRow(report: NewReport, analysis: Analysis | null, now: string) {
  return {
    organization_id: report.organizationId,
    url: report.url,
    project: report.project,
    privacy: report.privacy,
    password_hash: report.passwordHash,
    ...(analysis === null ? NO_RUN : analysisColumns(analysis)),
    state: analysis === null ? ('queued' as const) : ('done' as const),
    last_error: null,
    ...report.scheduling,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Inserts a new report (with its first run, if it has one) and counts it in its project, whose row it
 * takes first: every transaction that changes a project's reports does, so two never wait on each
 * other in a cycle on PostgreSQL.
 */
export async function insertReportInProject(trx: Kysely<Database>, row: ReturnType<typeof newReportRow>, trigger: RunTrigger = 'create'): Promise<number> {
  await adjustProjectCounts(trx, row.organization_id, row.project, countsDelta(row.result, 1), row.created_at);
  return reportRepository.insertReport(trx, row, trigger);
}

/**
 * The report as it is once its project's row is locked (see lockProject), so a project delete or
 * another change to the project's reports cannot interleave with the caller's.
 */
export async function lockedReport(trx: Kysely<Database>, organizationId: number, id: number, project?: string): Promise<ReportListRow> {
  // A report's url, and so its project, never changes: a caller that read it already skips a read.
  if (project === undefined) {
    const seen = await reportRepository.findReportRow(trx, organizationId, id);
    if (!seen) throw new NotFoundError();
    project = seen.project;
  }
  await lockProject(trx, organizationId, project);
  const current = await reportRepository.findReportRow(trx, organizationId, id);
  if (!current) throw new NotFoundError();
  return current;
}

/**
 * Stores `analysis` as the report's latest run (with `patch`, e.g. a privacy change sent beside
 * results=1) and marks it done. NotFoundError when the report went meanwhile.
 */
export async function storeRun(
  db: Kysely<Database>,
  organizationId: number,
  id: number,
  analysis: Analysis,
  options: RunOptions & { patch?: Omit<reportRepository.ReportPatch, 'updated_at'>; project?: string },
): Promise<void> {
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    const current = await lockedReport(trx, organizationId, id, options.project);
    const patch = { ...options.patch, state: 'done' as const, last_error: null, updated_at: now };
    await addRunLocked(trx, current, analysis, { ...options, patch, now });
  });
}

/**
 * Adds `analysis` as the next run of `current` (read after its project's row was locked, in the
 * caller's transaction) with `patch`, and moves the project's verdict tally when the verdict changed.
 */
export async function addRunLocked(
  trx: Kysely<Database>,
  current: ReportListRow,
  analysis: Analysis,
  options: RunOptions & { patch: reportRepository.ReportPatch; now: string },
): Promise<void> {
  await reportRepository.addRun(trx, current, { ...analysisColumns(analysis), trigger: options.trigger }, { keep: options.keep, patch: options.patch });
  if (analysis.result !== current.result) {
    await adjustProjectCounts(trx, current.organization_id, current.project, verdictMoved(current.result, analysis.result), options.now);
  }
}
