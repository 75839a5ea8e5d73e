// Jobs the queue lost (docs/production.md, "When the queue loses jobs"): the database is the record of
// what must run, and the queue only carries the work, so a Redis that restarted empty leaves nothing
// stuck. Every process that runs jobs sweeps when it starts and then twice a PAGEGRADE_JOB_LEASE_MS:
// a report queued or running, unchanged for longer than the lease, whose job the queue no longer holds,
// is queued again as its next attempt (failed after the third); a crawl none of whose jobs the queue
// holds is resumed from its frontier, which is in the database. Each is a compare-and-set on the row's
// job generation, and the new job's id is made from it, so however many processes sweep at once, one
// job is queued; a job of an older generation that turns up does nothing.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { RunTrigger } from '../db/tables/report-run.table.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import { MAX_ATTEMPTS, type JobQueue } from '../queue/job-queue.ts';
import * as jobGenerations from '../repositories/job-generation.repository.ts';
import { findReportRow } from '../repositories/report.repository.ts';
import type { AppJobs } from './background.service.ts';
import { queueCrawlWork } from './crawl-jobs.ts';
import { crawlJobIds, crawlStartJobId, reportJobId } from './job-ids.ts';
import { toReportSummary } from './report-view.ts';
import type { ReportNotifier } from './run-events.ts';
import { labProfileOf } from './report-analysis-jobs.ts';

/** last_error of a report whose analysis the queue lost on each of its attempts. */
export const LOST_ANALYSIS = `The analysis was lost: the job queue lost it on each of its ${MAX_ATTEMPTS} attempts.`;
/** last_error, for a moment, of a report whose lost analysis results=1 replaces. */
const REPLACED_ANALYSIS = 'The analysis was lost by the job queue; a new one takes its place.';

/** Rows read per query; a sweep reads page after page until none is left. */
const PAGE = 500;

export interface LostJobSettings {
  /** PAGEGRADE_JOB_LEASE_MS: how long a report's state may stay unchanged before its job is looked for */
  leaseMs: number;
  /** PAGEGRADE_CRAWL_CONCURRENCY: how many chains of work jobs a crawl runs */
  crawlConcurrency: number;
  /** The clock (a test's own). */
  now?: () => Date;
}

export interface SweepOutcome {
  /** reports queued again */
  requeued: number;
  /** reports failed: their last attempt was lost */
  failed: number;
  /** crawls resumed */
  resumed: number;
}

type Queue = Pick<JobQueue<AppJobs>, 'enqueue' | 'holds'>;

export function createLostJobs(db: Kysely<Database>, queue: Queue, notify: ReportNotifier, settings: LostJobSettings) {
  const clock = settings.now ?? (() => new Date());
  const leaseAgo = (now: Date) => new Date(now.getTime() - settings.leaseMs).toISOString();
  const jobIdOf = (row: jobGenerations.ReportJobRow) => reportJobId(row.id, row.job_generation);

  /** The next attempt of a lost analysis, or its end after the last: what this process did. */
  async function recover(row: jobGenerations.ReportJobRow, now: string): Promise<'requeued' | 'failed' | undefined> {
    if (Math.max(row.job_attempt, 1) >= MAX_ATTEMPTS) {
      if (!(await jobGenerations.failLostReport(db, row, now, LOST_ANALYSIS))) return undefined;
      await notify(row.organization_id, {
        'report.failed': async () => {
          const report = await findReportRow(db, row.organization_id, row.id);
          return report && toReportSummary(report);
        },
      });
      return 'failed';
    }
    // A report queued before its jobs had generations did not say its trigger.
    const trigger = (row.job_trigger ?? (row.runs_count === 0 ? 'create' : 'regenerate')) as RunTrigger;
    if (!(await jobGenerations.requeueLostReport(db, row, now, trigger))) return undefined;
    const generation = row.job_generation + 1;
    await queue.enqueue(
      'report.analyse',
      { accountId: row.organization_id, reportId: row.id, trigger, render: row.job_render, lab: labProfileOf(row.job_lab) ?? '', generation },
      { jobId: reportJobId(row.id, generation) },
    );
    return 'requeued';
  }

  async function resume(crawl: CrawlRow, now: string): Promise<boolean> {
    if (!(await jobGenerations.resumeLostCrawl(db, crawl, now))) return false;
    const generation = crawl.job_generation + 1;
    // A crawl that never started (no origin facts) starts; a running one goes on with its frontier.
    if (crawl.state === 'queued' || crawl.origin_facts === null) {
      await queue.enqueue('crawl.start', { crawlId: crawl.id, generation }, { jobId: crawlStartJobId(crawl.id, generation) });
    } else {
      await queueCrawlWork((kind, payload, options) => queue.enqueue(kind, payload, options).then(() => {}), crawl.id, generation, settings.crawlConcurrency);
    }
    return true;
  }

  async function sweepReports(now: Date, outcome: SweepOutcome): Promise<void> {
    const before = leaseAgo(now);
    let after: jobGenerations.ReportJobRow | undefined;
    for (;;) {
      const rows = await jobGenerations.staleReportsInProgress(db, before, PAGE, after);
      if (rows.length === 0) return;
      const held = await queue.holds(rows.map(jobIdOf));
      for (const row of rows) {
        if (held.has(jobIdOf(row))) continue;
        const done = await recover(row, now.toISOString());
        if (done !== undefined) outcome[done] += 1;
      }
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1];
    }
  }

  async function sweepCrawls(now: Date, outcome: SweepOutcome): Promise<void> {
    const before = leaseAgo(now);
    let afterId = 0;
    for (;;) {
      const crawls = await jobGenerations.staleCrawlsInProgress(db, before, PAGE, afterId);
      if (crawls.length === 0) return;
      const idsOf = (crawl: CrawlRow) => crawlJobIds(crawl.id, crawl.job_generation, settings.crawlConcurrency);
      const held = await queue.holds(crawls.flatMap(idsOf));
      for (const crawl of crawls) {
        if (idsOf(crawl).some((id) => held.has(id))) continue;
        if (await resume(crawl, now.toISOString())) outcome.resumed += 1;
      }
      if (crawls.length < PAGE) return;
      afterId = crawls[crawls.length - 1].id;
    }
  }

  return {
    /** How often a process that runs jobs sweeps: at least once a lease, as docs/production.md says. */
    intervalMs: Math.max(1, Math.floor(settings.leaseMs / 2)),

    /** Finds the lost reports and crawls and queues them again; throws when the queue cannot be asked. */
    async sweep(now = clock()): Promise<SweepOutcome> {
      const outcome = { requeued: 0, failed: 0, resumed: 0 };
      await sweepReports(now, outcome);
      await sweepCrawls(now, outcome);
      return outcome;
    },

    /**
     * results=1 on a report that is queued or running: when its analysis was lost (unchanged for
     * longer than the lease, and its job is not in the queue), it is marked failed so that the new one
     * takes its place, and this says true. False when its job is still held, or the queue cannot say.
     */
    async replaceLost(organizationId: number, reportId: number): Promise<boolean> {
      const now = clock();
      const row = await jobGenerations.findReportJob(db, organizationId, reportId);
      if (row === undefined || (row.state !== 'queued' && row.state !== 'running') || row.updated_at >= leaseAgo(now)) return false;
      try {
        if ((await queue.holds([jobIdOf(row)])).size > 0) return false;
      } catch {
        return false;
      }
      return jobGenerations.failLostReport(db, row, now.toISOString(), REPLACED_ANALYSIS);
    },
  };
}
