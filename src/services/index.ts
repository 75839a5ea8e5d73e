// The services every adapter (API routes, web pages, CLI) calls; built once per app.
import type { Config } from '../config.ts';
import type { AppDatabase } from '../db/open-database.ts';
import { analysisPool } from '../analysis/analysis-pool.ts';
import { createAnalyzer, createFetchedPageAnalyzer, type Analyzer, type AnalyzerOptions } from '../analysis/analyze-url.ts';
import { createReportService } from './report.service.ts';
import { createProjectService } from './project.service.ts';
import { createRunService } from './run.service.ts';
import { createScheduler } from './scheduler.ts';
import { createAccountService } from './account.service.ts';
import { createOrganizationService } from './organization.service.ts';
import { createMemberService } from './member.service.ts';
import { createKeyService } from './key.service.ts';
import { createShareLinkService } from './share-link.service.ts';
import { createHealthService } from './health.service.ts';
import { createReportAccessService } from './report-access.service.ts';
import { createWebSessionService } from './web-session.service.ts';
import { createAnalysisSlots } from './analysis-slots.ts';
import { createLists } from '../lists/index.ts';
import { openQueue } from '../queue/open-queue.ts';
import type { GiveUpHandlers, JobHandlers, JobKinds, QueueErrorReporter } from '../queue/job-queue.ts';
import { createBackgroundService, type AppJobs } from './background.service.ts';
import { createReportAnalysisJobs, type QueueAnalysis } from './report-analysis-jobs.ts';
import type { ReportNotifier } from './run-events.ts';
import { createWebhookService } from './webhook.service.ts';
import { createCrawlJobs, type CrawlNotifier } from './crawl-jobs.ts';
import { createLostJobs } from './lost-jobs.ts';
import { crawlStartJobId, reportJobId } from './job-ids.ts';
import { startReportJobGeneration } from '../repositories/job-generation.repository.ts';
import { createCrawlService } from './crawl.service.ts';
import { crawlSecrets } from '../crawl/crawl-requests.ts';
import { createCrawlDiffService } from './crawl-diff.service.ts';
import { createCrawlSchedules } from './crawl-schedule.ts';
import { createCrawlEvents } from './crawl-regressed.ts';
import type { WebhookEvent } from './webhook-events.ts';
import { resolveSecretKey } from '../security/secret-key.ts';
import { createRenderer, type Renderer } from '../render/renderer.ts';
import type { PdfOptions } from '../render/print-pdf.ts';
import type { FetchOptions } from '../fetch/options.ts';

export type Services = ReturnType<typeof createServices>;

/** `renderer`: for render=1 (rendererFromConfig); without, a page asked to be rendered says it could not be. */
export function analyzerFromConfig(config: Config, onCheckFailure?: (checkId: string, error: unknown) => void, renderer?: Renderer | null): Analyzer {
  return createAnalyzer(analyzerOptions(config, onCheckFailure, renderer));
}

function analyzerOptions(config: Config, onCheckFailure?: (checkId: string, error: unknown) => void, renderer?: Renderer | null): AnalyzerOptions {
  return {
    fetch: fetchOptions(config),
    thresholds: config.thresholds,
    onCheckFailure,
    pool: config.analysisThreads > 0 ? analysisPool(config.analysisThreads) : undefined,
    renderer,
  };
}

/** The fetcher's settings from the config; with analysis threads, sitemaps and robots.txt are parsed on them. */
export function fetchOptions(config: Config): FetchOptions {
  return {
    timeoutMs: config.fetchTimeoutMs,
    maxBytes: config.maxPageBytes,
    userAgent: config.userAgent,
    allowPrivate: config.allowPrivateUrls,
    publicAddressesForTests: config.publicAddressesForTests,
    allowedAddresses: config.allowedAddresses,
    // Sitemaps and robots.txt are parsed on the analysis threads, off the event loop.
    pool: config.analysisThreads > 0 ? analysisPool(config.analysisThreads) : undefined,
  };
}

/**
 * The browser pool that renders pages (render=1) under the fetcher's settings and prints PDFs, its one
 * browser started on first use; null without Chromium at PAGEGRADE_CHROMIUM_PATH. Whoever makes one
 * closes it.
 */
export function rendererFromConfig(config: Config): Renderer | null {
  return createRenderer({
    chromiumPath: config.chromiumPath,
    concurrency: config.renderConcurrency,
    labConcurrency: config.labConcurrency,
    labTimeoutMs: config.labTimeoutMs,
    fetch: fetchOptions(config),
  });
}

export interface ServiceOptions {
  /** Replaces the analyzer built from config (a test may wrap the real one). */
  analyzer?: Analyzer;
  /** Where a check that threw is reported; the report itself survives. */
  onCheckFailure?: (checkId: string, error: unknown) => void;
  /** Where the queue reports what no caller waits for: a failed job run, a lost connection. */
  onJobError?: QueueErrorReporter;
  /** Job handlers beside the application's own (a test's, to watch the queue run in this app). */
  extraJobHandlers?: JobHandlers<JobKinds>;
  /**
   * The key webhook secrets are encrypted with, as buildApp and `pagegrade worker` resolve it at
   * start; without it, it is resolved from config when a webhook first needs it (CLI commands).
   */
  secretKey?: string;
  /** Replaces the browser made from config (a test's stand-in for render=1 and lab=1); null: none. */
  renderer?: Renderer | null;
}

export function createServices(database: AppDatabase, config: Config, options: ServiceOptions = {}) {
  const db = database.db;
  const accounts = createAccountService(db);
  const organizations = createOrganizationService(db);
  // Before the crawl notifier: crawl.regressed sends the diff with a crawl's default `from`.
  const crawlDiffs = createCrawlDiffService(db, { alertScoreDrop: config.alertScoreDrop });
  const reportError = options.onJobError ?? (() => {});
  // Webhook deliveries mostly wait on the network: they have slots of their own, beside the analyses'
  // and crawls' (docs/production.md, PAGEGRADE_WEBHOOK_CONCURRENCY).
  const queue = openQueue<AppJobs>(db, config, reportError, [{ name: 'webhooks', kinds: ['webhook.deliver'], concurrency: config.webhookConcurrency }]);
  const webhooks = createWebhookService(db, (payload, enqueueOptions) => queue.enqueue('webhook.deliver', payload, enqueueOptions), {
    secretKey: options.secretKey ?? (() => resolveSecretKey(config).key),
    allowPrivateUrls: config.allowPrivateUrls,
    publicAddressesForTests: config.publicAddressesForTests,
    allowedAddresses: config.allowedAddresses,
    retryMs: config.webhookRetryMs,
    userAgent: config.userAgent,
  });
  const renderer = options.renderer !== undefined ? options.renderer : rendererFromConfig(config);
  const analyze = options.analyzer ?? analyzerFromConfig(config, options.onCheckFailure, renderer);
  // An event that cannot be sent (the database or queue away) is reported, never fails the analysis.
  const notify: ReportNotifier = async (accountId, events) => {
    try {
      const wanted = await webhooks.subscribedEvents(accountId);
      for (const [event, data] of Object.entries(events)) {
        if (!wanted.has(event as WebhookEvent)) continue;
        const payload = await data();
        if (payload !== undefined) await webhooks.notify(accountId, event as WebhookEvent, payload);
      }
    } catch (error) {
      reportError(error, { kind: 'webhook.deliver', message: `could not queue the report webhooks of account ${accountId}` });
    }
  };
  // crawl.completed, then crawl.regressed when the crawl is worse than the one before it.
  const sendCrawlEvents = createCrawlEvents(webhooks, (organizationId, crawlId) => crawlDiffs.regression(organizationId, crawlId));
  const notifyCrawl: CrawlNotifier = async (accountId, crawl) => {
    try {
      await sendCrawlEvents(accountId, crawl);
    } catch (error) {
      reportError(error, { kind: 'webhook.deliver', message: `could not queue the crawl webhooks of account ${accountId}` });
    }
  };
  // Crawls' request headers are sealed and opened with one box: its key resolved once, when first
  // needed, as webhooks resolve theirs (an in-memory database's key lives only as long as the process).
  const crawlHeaderSecrets = crawlSecrets(options.secretKey ?? (() => resolveSecretKey(config).key));
  const crawlJobs = createCrawlJobs(db, createFetchedPageAnalyzer(analyzerOptions(config, options.onCheckFailure, renderer)), (kind, payload, enqueueOptions) => queue.enqueue(kind, payload, enqueueOptions).then(() => {}), notifyCrawl, {
    fetch: fetchOptions(config),
    concurrency: config.crawlConcurrency,
    runsKept: config.runsKept,
    claimMs: config.crawlClaimMs,
    maxExternal: config.crawlMaxExternal,
    sliceMs: 30_000,
    pool: config.analysisThreads > 0 ? analysisPool(config.analysisThreads) : undefined,
    secrets: crawlHeaderSecrets,
    lab: { renderer, thresholds: config.thresholds, onCheckFailure: options.onCheckFailure },
  });
  const analysisJobs = createReportAnalysisJobs(db, analyze, notify, { runsKept: config.runsKept, alertScoreDrop: config.alertScoreDrop });
  // Assigned one by one: in an object literal TypeScript would hold each handler to AppJobs' index
  // signature (any payload) instead of its own kind's payload.
  const jobHandlers = { ...options.extraJobHandlers } as JobHandlers<AppJobs>;
  jobHandlers['report.analyse'] = (payload) => analysisJobs.analyze(payload);
  jobHandlers['webhook.deliver'] = (payload) => webhooks.deliver(payload);
  jobHandlers['crawl.start'] = (payload) => crawlJobs.start(payload);
  jobHandlers['crawl.work'] = (payload) => crawlJobs.work(payload);
  // The report was just marked queued: its job is the next generation, under an id made from it.
  const queueAnalysis: QueueAnalysis = async (accountId, reportId, trigger, { render = false, lab } = {}) => {
    const generation = await startReportJobGeneration(db, accountId, reportId, { trigger, render, lab });
    if (generation === undefined) return; // deleted, or settled by another request meanwhile
    const payload = { accountId, reportId, trigger, render: render ? 1 : 0, lab: lab ?? '', generation };
    await queue.enqueue('report.analyse', payload, { jobId: reportJobId(reportId, generation) });
  };
  const scheduler = createScheduler(db, queueAnalysis);
  // A stored crawl's start, as POST /crawls and a crawl's schedule queue it.
  const queueCrawlStart = async (crawlId: number) => void (await queue.enqueue('crawl.start', { crawlId, generation: 0 }, { jobId: crawlStartJobId(crawlId, 0) }));
  const crawlSchedules = createCrawlSchedules(db, queueCrawlStart, { minScheduleMinutes: config.minScheduleMinutes, crawlsPerAccount: config.crawlsPerAccount });
  const lostJobs = createLostJobs(db, queue, notify, { leaseMs: config.jobLeaseMs, crawlConcurrency: config.crawlConcurrency });
  const giveUpHandlers: GiveUpHandlers<AppJobs> = {};
  giveUpHandlers['report.analyse'] = (payload, error) => analysisJobs.giveUp(payload, error);
  giveUpHandlers['webhook.deliver'] = (payload, error) => webhooks.giveUp(payload, error);
  giveUpHandlers['crawl.start'] = (payload, error) => crawlJobs.giveUp('crawl.start', payload, error);
  giveUpHandlers['crawl.work'] = (payload, error) => crawlJobs.giveUp('crawl.work', payload, error);
  return {
    reports: createReportService(db, {
      analyze,
      slots: createAnalysisSlots({ perAccount: config.maxAnalysesPerAccount, overall: config.maxAnalyses, retryAfterSeconds: 5 }),
      queueAnalysis,
      notify,
      runsKept: config.runsKept,
      alertScoreDrop: config.alertScoreDrop,
      minScheduleMinutes: config.minScheduleMinutes,
      renderingAvailable: renderer !== null,
      replaceLostAnalysis: (organizationId, reportId) => lostJobs.replaceLost(organizationId, reportId),
    }),
    /** A report's runs and what changed between two of them. */
    runs: createRunService(db),
    projects: createProjectService(db),
    /** Every list (reports, projects, runs, crawls and their pages, webhooks and their deliveries), for API and web alike. */
    lists: createLists(db),
    accounts,
    organizations,
    members: createMemberService(db, organizations, accounts),
    keys: createKeyService(db),
    /** Share links: a token that opens one report or crawl without sign-in (docs/organisations.md). */
    shares: createShareLinkService(db),
    health: createHealthService(db),
    /** Who may see a report's web page, and unlocking password-protected ones. */
    reportAccess: createReportAccessService(db),
    /** Dashboard sign-in sessions, opened with an API key. */
    webSessions: createWebSessionService(db, accounts),
    /** Site audits: starting, reading and cancelling crawls. */
    crawls: createCrawlService(db, queueCrawlStart, notifyCrawl, {
      allowPrivateUrls: config.allowPrivateUrls,
      publicAddressesForTests: config.publicAddressesForTests,
      allowedAddresses: config.allowedAddresses,
      maxPages: config.crawlMaxPages,
      crawlsPerAccount: config.crawlsPerAccount,
      secrets: crawlHeaderSecrets,
      minScheduleMinutes: config.minScheduleMinutes,
      renderingAvailable: renderer !== null,
    }),
    /** Two finished crawls compared (GET /crawls/{id}/diff, the dashboard's compare page, crawl.regressed). */
    crawlDiffs,
    /** Webhooks of each account, and sending them their events. */
    webhooks,
    /** The job queue and the handlers this process runs when it takes jobs (start). */
    background: createBackgroundService(queue, jobHandlers, giveUpHandlers, [
      {
        everyMs: config.schedulerIntervalMs,
        run: async () => void (await scheduler.runDue()),
        onError: (error) => reportError(error, { message: 'the scheduler could not queue due reports' }),
      },
      {
        everyMs: config.schedulerIntervalMs,
        run: async () => void (await crawlSchedules.runDue()),
        onError: (error) => reportError(error, { message: 'the scheduler could not start due crawls' }),
      },
      {
        everyMs: lostJobs.intervalMs,
        run: async () => void (await lostJobs.sweep()),
        onError: (error) => reportError(error, { message: 'could not look for jobs the queue lost' }),
      },
    ]),
    /** Finds the reports and crawls whose jobs the queue lost, and queues them again (docs/production.md). */
    lostJobs,
    /** Queues the reports whose schedule is due (every process running jobs does, every few seconds). */
    scheduler,
    /** Crawls' schedules: PUT /crawls/{id}, and starting the crawls whose schedule is due (as `scheduler`). */
    crawlSchedules,
    /** The browser of render=1 and of PDFs (one pool, started on first use), closed when the process stops. */
    rendering: {
      /**
       * Prints a self-contained page to PDF (GET /reports/{id}.pdf); null without Chromium, which also
       * says render=1 is not available (the forms do not offer it).
       */
      pdf: renderer ? (html: string, options: PdfOptions) => renderer.pdf(html, options) : null,
      close: async () => renderer?.close(),
    },
  };
}
