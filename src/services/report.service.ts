// Report rules: ownership, validation beyond the schema, analysing before storing (or queueing the
// analysis, with async), and keeping each project's row in step with its reports in one transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Analyzer } from '../analysis/analyze-url.ts';
import type { Analysis, Verdict } from '../analysis/types.ts';
import { parseTargetUrl } from '../analysis/target-url.ts';
import { FetchError } from '../fetch/fetch-error.ts';
import { hashPassword } from '../security/hashing.ts';
import * as reportRepository from '../repositories/report.repository.ts';
import { adjustProjectCounts } from '../repositories/project.repository.ts';
import { AnalysisInProgressError, NotFoundError, QueueUnavailableError, ValidationError } from './errors.ts';
import { toAnalyzedReport, toReport, toReportSummary } from './report-view.ts';
import type { Privacy, Report } from './types.ts';
import type { AnalysisSlots } from './analysis-slots.ts';
import { ANALYSIS_IN_PROGRESS, ANALYSIS_SETTLED, countsDelta, insertReportInProject, lockedReport, newReportRow, storeRun } from './report-run.ts';
import type { AnalysisAsked, QueueAnalysis } from './report-analysis-jobs.ts';
import type { LabProfileName } from '../lab/lab-types.ts';
import { announceRun, type ReportNotifier } from './run-events.ts';
import { nextRunAt, parseSchedule } from './schedule.ts';

const MAX_PASSWORD_LENGTH = 128;

export interface CreateReportInput {
  url: string;
  privacy: Privacy;
  password?: string;
  /** Store the report now and analyse it in the background (202); otherwise analyse first (201). */
  background?: boolean;
  /** off (default) | daily | weekly | monthly | a 5-field cron expression (UTC) */
  schedule?: string;
  /** Also load the page in the browser and record what JavaScript changes (render=1). */
  render?: boolean;
  /** Also make a lab audit under this profile (lab=1, docs/lab.md). */
  lab?: LabProfileName;
}

/**
 * What create answers: the new report and `duplicate_of`, the id of the account's newest earlier
 * report of the same (normalised) URL, or null (docs/api.md, "Reports").
 */
export type CreatedReport = Report & { duplicate_of: number | null };

export interface UpdateReportInput {
  privacy?: Privacy;
  password?: string;
  regenerate: boolean;
  /** With regenerate: queue the analysis and answer at once. */
  background?: boolean;
  schedule?: string;
  /** With regenerate: render the page too (render=1). */
  render?: boolean;
  /** With regenerate: a lab audit under this profile too (lab=1). */
  lab?: LabProfileName;
}

function checkPassword(password: string | undefined): string {
  if (password === undefined || password === '') {
    throw new ValidationError('password', 'The password field is required when privacy is 2 (password).');
  }
  if ([...password].length > MAX_PASSWORD_LENGTH) {
    throw new ValidationError('password', `The password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
  }
  return password;
}

export interface ReportServiceDependencies {
  analyze: Analyzer;
  slots: AnalysisSlots;
  /** Hands a report's analysis to the background queue. */
  queueAnalysis: QueueAnalysis;
  /** Tells subscribers (webhooks) that an analysis of a report ended. */
  notify: ReportNotifier;
  /** Runs kept per report (PAGEGRADE_RUNS_KEPT). */
  runsKept: number;
  /** PAGEGRADE_ALERT_SCORE_DROP */
  alertScoreDrop: number;
  /** PAGEGRADE_MIN_SCHEDULE_MINUTES */
  minScheduleMinutes: number;
  /** Whether a browser is there for render=1 and lab=1 (PAGEGRADE_CHROMIUM_PATH). */
  renderingAvailable: boolean;
  /**
   * results=1 on a report being analysed: true when the queue lost its analysis, which is then marked
   * failed for the new one to take its place (lost-jobs.ts); without it, always 409.
   */
  replaceLostAnalysis?: (organizationId: number, reportId: number) => Promise<boolean>;
}

export function createReportService(db: Kysely<Database>, { analyze, slots, queueAnalysis, notify, runsKept, alertScoreDrop, minScheduleMinutes, renderingAvailable, replaceLostAnalysis }: ReportServiceDependencies) {
  /** Fetch problems are the caller's input problem (422 on url), never a half-made report. */
  async function analyzeOrReject(organizationId: number, url: string, asked: AnalysisAsked): Promise<Analysis> {
    try {
      return await slots.run(organizationId, () => analyze(url, asked));
    } catch (error) {
      if (error instanceof FetchError) {
        throw new ValidationError('url', `The page could not be analysed: ${error.reason}`);
      }
      throw error;
    }
  }

  async function show(organizationId: number, id: number): Promise<Report> {
    const row = await reportRepository.findReport(db, organizationId, id);
    if (!row) throw new NotFoundError();
    return toReport(row);
  }

  return {
    show,

    async create(organizationId: number, input: CreateReportInput): Promise<CreatedReport> {
      const target = parseTargetUrl(input.url);
      if (!target.ok) throw new ValidationError('url', target.message);
      const password = input.privacy === 2 ? checkPassword(input.password) : undefined;
      const scheduling = scheduleColumns(input.schedule ?? 'off', new Date());
      const asked = browserWork(input);
      const analysis = input.background ? null : await analyzeOrReject(organizationId, target.url, asked);
      const passwordHash = password === undefined ? null : await hashPassword(password);
      const now = new Date().toISOString();
      const row = newReportRow({ organizationId, url: target.url, project: target.project, privacy: input.privacy, passwordHash, scheduling }, analysis, now);
      const id = await db.transaction().execute((trx) => insertReportInProject(trx, row));
      // Ids grow with time: the newest report of the URL below this id is the newest earlier one.
      const duplicateOf = await reportRepository.findNewestReportIdOfUrl(db, organizationId, target.url, id);
      if (analysis === null) {
        // Made before queueing: a worker may start at once, and the answer says the report is queued.
        const queued = toReport({ id, ...row, runs_count: 0 });
        await queueOrUndo(() => queueAnalysis(organizationId, id, 'create', asked), () => removeReport(organizationId, id));
        return { ...queued, duplicate_of: duplicateOf };
      }
      const stored = { id, ...row, runs_count: 1, last_run_number: 1 };
      const report = toAnalyzedReport(stored, analysis);
      await notify(organizationId, { 'report.completed': async () => toReportSummary(stored) });
      return { ...report, duplicate_of: duplicateOf };
    },

    async update(organizationId: number, id: number, input: UpdateReportInput): Promise<Report> {
      const existing = await reportRepository.findReportRow(db, organizationId, id);
      if (!existing) throw new NotFoundError();
      const patch: { privacy?: number; password_hash?: string | null; schedule?: string; next_run_at?: string | null } =
        input.schedule === undefined ? {} : scheduleColumns(input.schedule, new Date());
      if (input.privacy === 2) {
        patch.privacy = 2;
        if (input.password !== undefined && input.password !== '') {
          patch.password_hash = await hashPassword(checkPassword(input.password));
        } else if (existing.password_hash === null) {
          throw new ValidationError('password', 'The password field is required to make this report password-protected.');
        }
      } else if (input.privacy !== undefined) {
        patch.privacy = input.privacy;
        patch.password_hash = null;
      } else if (existing.privacy === 2 && input.password !== undefined) {
        patch.password_hash = await hashPassword(checkPassword(input.password));
      }
      // Without results=1 render and lab do nothing, so they need no browser either.
      const asked: AnalysisAsked = input.regenerate ? browserWork(input) : {};
      // An analysis under way answers 409, unless the queue lost it: then the new one takes its place.
      if (input.regenerate && (ANALYSIS_IN_PROGRESS as readonly string[]).includes(existing.state) && !(await replaceLostAnalysis?.(organizationId, id))) {
        throw new AnalysisInProgressError();
      }
      if (input.regenerate && input.background) return queueRegeneration(organizationId, id, patch, asked);
      if (!input.regenerate) {
        await reportRepository.updateReport(db, organizationId, id, { ...patch, updated_at: new Date().toISOString() });
        return show(organizationId, id);
      }
      let analysis;
      try {
        analysis = await analyzeOrReject(organizationId, existing.url, asked);
      } catch (error) {
        if (error instanceof ValidationError) {
          await notify(organizationId, { 'report.failed': async () => ({ ...toReportSummary(existing), last_error: { message: error.message } }) });
        }
        throw error;
      }
      await storeRun(db, organizationId, id, analysis, { trigger: 'regenerate', keep: runsKept, patch });
      const report = await show(organizationId, id);
      await announceRun(db, notify, organizationId, id, alertScoreDrop);
      return report;
    },

    remove: removeReport,
  };

  /**
   * What the analysis does in a browser. render=1 and lab=1 need one on this server: without, each is a
   * 422 on its field (docs/api.md, docs/lab.md), before anything is fetched or stored.
   */
  function browserWork(input: { render?: boolean; lab?: LabProfileName }): AnalysisAsked {
    if (input.render && !renderingAvailable) throw new ValidationError('render', 'Rendering is not available on this server.');
    if (input.lab && !renderingAvailable) throw new ValidationError('lab', 'Lab audits are not available on this server.');
    return { render: input.render === true, ...(input.lab && { lab: input.lab }) };
  }

  /** The schedule as stored, and when it runs first: from now. */
  function scheduleColumns(input: string, now: Date) {
    const schedule = parseSchedule(input, minScheduleMinutes);
    return { schedule, next_run_at: nextRunAt(schedule, now)?.toISOString() ?? null };
  }

  async function removeReport(organizationId: number, id: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const current = await lockedReport(trx, organizationId, id);
      await reportRepository.deleteReport(trx, organizationId, id);
      await adjustProjectCounts(trx, organizationId, current.project, countsDelta(current.result, -1), new Date().toISOString());
    });
  }

  /**
   * Marks the report queued, unless another request just did (409), with the privacy change sent
   * beside it, then queues the analysis. The previous results stay until the new run succeeds.
   */
  async function queueRegeneration(organizationId: number, id: number, patch: reportRepository.ReportPatch | Omit<reportRepository.ReportPatch, 'updated_at'>, asked: AnalysisAsked) {
    const now = new Date().toISOString();
    const previous = await db.transaction().execute(async (trx) => {
      const current = await lockedReport(trx, organizationId, id);
      if (!(await reportRepository.moveReportState(trx, organizationId, id, { from: ANALYSIS_SETTLED, to: 'queued', now }))) {
        throw new AnalysisInProgressError();
      }
      await reportRepository.updateReport(trx, organizationId, id, { ...patch, updated_at: now });
      return current.state as 'done' | 'failed';
    });
    const queued = await show(organizationId, id);
    await queueOrUndo(
      () => queueAnalysis(organizationId, id, 'regenerate', asked),
      async () => {
        await reportRepository.moveReportState(db, organizationId, id, { from: ['queued'], to: previous, now: new Date().toISOString() });
      },
    );
    return queued;
  }
}

/**
 * Queues a job for a report just stored as queued; when the queue cannot take it (Redis away), undoes
 * the change so no report waits for a job that does not exist, and answers 503.
 */
async function queueOrUndo(queue: () => Promise<void>, undo: () => Promise<void>): Promise<void> {
  try {
    await queue();
  } catch (error) {
    await undo();
    throw new QueueUnavailableError(error);
  }
}

