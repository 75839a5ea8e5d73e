// The services every adapter (API routes, web pages, CLI) calls; built once per app.
import type { Config } from '../config.ts';
import type { AppDatabase } from '../db/open-database.ts';
import { analysisPool } from '../analysis/analysis-pool.ts';
import { createAnalyzer, type Analyzer } from '../analysis/analyze-url.ts';
import { createReportService } from './report.service.ts';
import { createProjectService } from './project.service.ts';
import { createRunService } from './run.service.ts';
import { createAccountService } from './account.service.ts';
import { createHealthService } from './health.service.ts';
import { createReportAccessService } from './report-access.service.ts';
import { createWebSessionService } from './web-session.service.ts';
import { createAnalysisSlots } from './analysis-slots.ts';
import { createLists } from '../lists/index.ts';
import { openQueue } from '../queue/open-queue.ts';
import type { GiveUpHandlers, JobHandlers, JobKinds, QueueErrorReporter } from '../queue/job-queue.ts';
import { createBackgroundService, type AppJobs } from './background.service.ts';
import { createReportAnalysisJobs, type AnalyseReportJob, type ReportNotifier } from './report-analysis-jobs.ts';

export type Services = ReturnType<typeof createServices>;

export function analyzerFromConfig(config: Config, onCheckFailure?: (checkId: string, error: unknown) => void): Analyzer {
  return createAnalyzer({
    fetch: {
      timeoutMs: config.fetchTimeoutMs,
      maxBytes: config.maxPageBytes,
      userAgent: config.userAgent,
      allowPrivate: config.allowPrivateUrls,
      publicAddressesForTests: config.publicAddressesForTests,
    },
    thresholds: config.thresholds,
    onCheckFailure,
    pool: config.analysisThreads > 0 ? analysisPool(config.analysisThreads) : undefined,
  });
}

export interface ServiceOptions {
  /** Replaces the analyser built from config (a test may wrap the real one). */
  analyzer?: Analyzer;
  /** Where a check that threw is reported; the report itself survives. */
  onCheckFailure?: (checkId: string, error: unknown) => void;
  /** Where the queue reports what no caller waits for: a failed job run, a lost connection. */
  onJobError?: QueueErrorReporter;
  /** Job handlers beside the application's own (a test's, to watch the queue run in this app). */
  extraJobHandlers?: JobHandlers<JobKinds>;
}

export function createServices(database: AppDatabase, config: Config, options: ServiceOptions = {}) {
  const db = database.db;
  const accounts = createAccountService(db);
  const reportError = options.onJobError ?? (() => {});
  const queue = openQueue<AppJobs>(db, config, reportError);
  const analyze = options.analyzer ?? analyzerFromConfig(config, options.onCheckFailure);
  // Issue 27's webhooks subscribe here; a notification that cannot be sent never fails the analysis.
  const notify: ReportNotifier = async () => {};
  const analysisJobs = createReportAnalysisJobs(db, analyze, notify, config.runsKept);
  return {
    reports: createReportService(db, {
      analyze,
      slots: createAnalysisSlots({ perAccount: config.maxAnalysesPerAccount, overall: config.maxAnalyses, retryAfterSeconds: 5 }),
      queueAnalysis: async (accountId, reportId, trigger) => void (await queue.enqueue('report.analyse', { accountId, reportId, trigger })),
      notify,
      runsKept: config.runsKept,
    }),
    /** A report's runs and what changed between two of them. */
    runs: createRunService(db),
    projects: createProjectService(db),
    /** Every list of reports and projects, for API and web alike. */
    lists: createLists(db),
    accounts,
    health: createHealthService(db),
    /** Who may see a report's web page, and unlocking password-protected ones. */
    reportAccess: createReportAccessService(db),
    /** Dashboard sign-in sessions, opened with an API key. */
    webSessions: createWebSessionService(db, accounts),
    /** The job queue and the handlers this process runs when it takes jobs (start). */
    background: createBackgroundService(
      queue,
      // Each kind's handler takes that kind's payload; the record's type cannot say so per key.
      { ...options.extraJobHandlers, 'report.analyse': (job: AnalyseReportJob) => analysisJobs.analyse(job) } as JobHandlers<AppJobs>,
      { 'report.analyse': (job: AnalyseReportJob, error: string) => analysisJobs.giveUp(job, error) } as GiveUpHandlers<AppJobs>,
    ),
  };
}
