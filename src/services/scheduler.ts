// Runs reports' schedules: every process that runs jobs looks for due reports every few seconds
// (PAGEGRADE_SCHEDULER_INTERVAL_MS), and for each one moves its next run on with a compare-and-set
// (advanceSchedule), so exactly one process queues each due run however many look. A report still
// being analysed skips that slot; a schedule missed while no process ran (down for days) runs once,
// then at its next slot after now.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { advanceSchedule, dueScheduledReports, moveReportState } from '../repositories/report.repository.ts';
import { labProfileOf, type QueueAnalysis } from './report-analysis-jobs.ts';
import { nextRunAt } from './schedule.ts';
import { ANALYSIS_SETTLED } from './report-run.ts';

/** Due reports taken per look; more wait for the next look, seconds later. */
const BATCH = 100;
export function createScheduler(db: Kysely<Database>, queueAnalysis: QueueAnalysis) {
  return {
    /** Queues every report due by `now`; returns how many this process queued. */
    async runDue(now = new Date()): Promise<number> {
      let queued = 0;
      for (const report of await dueScheduledReports(db, now.toISOString(), BATCH)) {
        const due = report.next_run_at!;
        const next = nextRunAt(report.schedule, now, new Date(due));
        if (!(await advanceSchedule(db, report.id, due, next?.toISOString() ?? null))) continue;
        const at = now.toISOString();
        // Already queued or running: this slot's analysis is the one under way.
        const moved = await moveReportState(db, report.organization_id, report.id, { from: ANALYSIS_SETTLED, to: 'queued', now: at });
        if (!moved) continue;
        try {
          // A lab audit again, under the same profile, when the latest run was asked for one (docs/lab.md).
          await queueAnalysis(report.organization_id, report.id, 'schedule', { lab: labProfileOf(report.lab_profile) });
          queued += 1;
        } catch (error) {
          // Nothing waits for a job that does not exist; the slot is missed and the next one tries again.
          const before = report.state === 'failed' ? 'failed' : 'done';
          await moveReportState(db, report.organization_id, report.id, { from: ['queued'], to: before, now: at });
          throw error;
        }
      }
      return queued;
    },
  };
}
