// The background analysis of a report (async=1): the job handler that fetches, checks and stores the
// run, and what happens when the queue gives the job up. Either engine may run a job again after a
// crash, so the handler works from the report's state: a report no longer queued or running has
// nothing left to do, and neither has a job another took the place of (its generation is not the
// report's: lost-jobs.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Analyzer } from '../analysis/analyze-url.ts';
import { FetchError } from '../fetch/fetch-error.ts';
import * as reportRepository from '../repositories/report.repository.ts';
import { failReportRun, startReportRun } from '../repositories/job-generation.repository.ts';
import { NotFoundError } from './errors.ts';
import { storeRun } from './report-run.ts';
import { announceRun, type ReportNotifier } from './run-events.ts';
import { toReportSummary } from './report-view.ts';
import type { ReportSummary } from './types.ts';
import type { RunTrigger } from '../db/tables/report-run.table.ts';
import { LAB_PROFILES, type LabProfileName } from '../lab/lab-types.ts';

export interface AnalyzeReportJob {
  [key: string]: number | string;
  accountId: number;
  reportId: number;
  /** what asked for the analysis: the run it makes records it */
  trigger: RunTrigger;
  /** 1: render=1, the page is loaded in the browser too (absent in jobs queued before rendering existed) */
  render: number;
  /**
   * mobile | desktop: lab=1, a lab audit under that profile too; '' none (absent in jobs queued
   * before lab audits existed). A string, not null: a job's payload holds numbers and strings.
   */
  lab: string;
  /** the report's job generation it was queued in (job-ids.ts); absent in jobs queued before generations */
  generation: number;
}

/** What a queued analysis does besides fetching and checking: render=1, lab=1 under a profile. */
export interface AnalysisAsked {
  render?: boolean;
  lab?: LabProfileName;
}

/** Queues the background analysis of a report that was just marked queued. */
export type QueueAnalysis = (accountId: number, reportId: number, trigger: RunTrigger, asked?: AnalysisAsked) => Promise<void>;

/** The lab profile a job's payload or a stored column names; undefined for none (or anything else). */
export function labProfileOf(value: unknown): LabProfileName | undefined {
  return (LAB_PROFILES as readonly unknown[]).includes(value) ? (value as LabProfileName) : undefined;
}

export interface AnalysisJobSettings {
  runsKept: number;
  /** PAGEGRADE_ALERT_SCORE_DROP */
  alertScoreDrop: number;
}

export function createReportAnalysisJobs(db: Kysely<Database>, analyze: Analyzer, notify: ReportNotifier, settings: AnalysisJobSettings) {
  async function currentSummary(accountId: number, reportId: number): Promise<ReportSummary | undefined> {
    const row = await reportRepository.findReportRow(db, accountId, reportId);
    return row === undefined ? undefined : toReportSummary(row);
  }

  /**
   * Marks the report failed with why, unless it settled or went meanwhile or another job took this
   * one's place, and tells subscribers.
   */
  async function fail({ accountId, reportId, generation }: AnalyzeReportJob, message: string): Promise<void> {
    const now = new Date().toISOString();
    const moved = await failReportRun(db, accountId, reportId, generation, { message, now });
    if (moved) await notify(accountId, { 'report.failed': () => currentSummary(accountId, reportId) });
  }

  return {
    /** The `report.analyse` job (a stored name, kept so jobs queued by earlier versions still run): analyze the page and store the run, or record why it could not be. */
    async analyze(job: AnalyzeReportJob): Promise<void> {
      const { accountId, reportId, trigger, render, lab } = job;
      const now = new Date().toISOString();
      // queued -> running; running again when an earlier run of this job died midway.
      if (!(await startReportRun(db, accountId, reportId, job.generation, now))) return;
      const row = await reportRepository.findReportRow(db, accountId, reportId);
      if (row === undefined) return;
      let analysis;
      try {
        analysis = await analyze(row.url, { render: render === 1, lab: labProfileOf(lab) });
      } catch (error) {
        // The page's own problem (unreachable, not HTML, too large): final, as a synchronous create's 422.
        if (error instanceof FetchError) return fail(job, `The page could not be analysed: ${error.reason}`);
        throw error;
      }
      try {
        await storeRun(db, accountId, reportId, analysis, { trigger, keep: settings.runsKept, project: row.project });
      } catch (error) {
        if (error instanceof NotFoundError) return; // deleted while it was being analysed
        throw error;
      }
      await announceRun(db, notify, accountId, reportId, settings.alertScoreDrop);
    },

    /** The queue gave the job up (it kept failing, or its process kept dying): the report failed. */
    async giveUp(job: AnalyzeReportJob, error: string): Promise<void> {
      await fail(job, `The analysis could not be completed: ${error}`);
    },
  };
}
