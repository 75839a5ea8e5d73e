// A report's runs: one run with what it measured, and what changed between two runs. Runs are
// reached through their report, so another account's report (or a run of another report) is a 404.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { findReportRow } from '../repositories/report.repository.ts';
import { findRun, latestRun } from '../repositories/report-run.repository.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { diffRuns, type RunDiff } from './run-diff.ts';
import { toRun } from './run-view.ts';
import type { Run } from './types.ts';

export function createRunService(db: Kysely<Database>) {
  async function ownedReport(accountId: number, reportId: number) {
    const report = await findReportRow(db, accountId, reportId);
    if (report === undefined) throw new NotFoundError();
    return report;
  }

  async function runOf(reportId: number, runId: number): Promise<Run> {
    const row = await findRun(db, reportId, runId);
    if (row === undefined) throw new NotFoundError();
    return toRun(row);
  }

  return {
    async show(accountId: number, reportId: number, runId: number): Promise<Run> {
      await ownedReport(accountId, reportId);
      return runOf(reportId, runId);
    },

    /** `to` defaults to the latest run, `from` to the run before `to`. */
    async diff(accountId: number, reportId: number, ids: { from?: number; to?: number }): Promise<RunDiff> {
      await ownedReport(accountId, reportId);
      const latest = ids.to === undefined ? await latestRun(db, reportId) : undefined;
      if (ids.to === undefined && latest === undefined) {
        throw new ValidationError('from', 'The report has no run yet, so there is nothing to compare.');
      }
      const to = ids.to === undefined ? toRun(latest!) : await runOf(reportId, ids.to);
      let from: Run;
      if (ids.from === undefined) {
        const previous = await latestRun(db, reportId, to.number);
        if (previous === undefined) {
          throw new ValidationError('from', `Run ${to.id} is the report's first kept run; there is no earlier run to compare it with.`);
        }
        from = toRun(previous);
      } else {
        from = await runOf(reportId, ids.from);
        if (from.number >= to.number) {
          throw new ValidationError('from', `The from run (${from.id}) must be older than the to run (${to.id}).`);
        }
      }
      return diffRuns(reportId, from, to);
    },
  };
}
