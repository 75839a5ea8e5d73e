// Report rules: ownership, validation beyond the schema, analysing before storing, and keeping each
// project's row in step with its reports in the same transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Analyzer } from '../analysis/analyze-url.ts';
import type { Analysis, Verdict } from '../analysis/types.ts';
import { parseTargetUrl } from '../analysis/target-url.ts';
import { FetchError } from '../fetch/fetch-error.ts';
import { hashPassword } from '../security/hashing.ts';
import * as reportRepository from '../repositories/report.repository.ts';
import { adjustProjectCounts, lockProject, sumProjectCounts } from '../repositories/project.repository.ts';
import { readReportsVersion } from '../repositories/reports-version.ts';
import type { JsonText, ReportFilters } from '../repositories/report.repository.ts';
import { createCountCache } from './count-cache.ts';
import { pageAndTotal, pageWindow, type PageItems } from './page-total.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { toAnalysedReport, toReport, toReportSummary } from './report-view.ts';
import type { JsonPage, Page, PageOf, Privacy, Report, ReportSummary } from './types.ts';
import type { AnalysisSlots } from './analysis-slots.ts';
import type { ListIndex } from './list-index.ts';

export const MAX_PASSWORD_LENGTH = 128;

export interface ReportListOptions {
  search?: string;
  project?: string;
  result?: Verdict;
  sortBy: 'id' | 'generated_at' | 'url' | 'result';
  sort: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export interface CreateReportInput {
  url: string;
  privacy: Privacy;
  password?: string;
}

export interface UpdateReportInput {
  privacy?: Privacy;
  password?: string;
  regenerate: boolean;
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

function countsDelta(result: string, sign: 1 | -1) {
  return {
    reports: sign,
    good: result === 'good' ? sign : 0,
    decent: result === 'decent' ? sign : 0,
    bad: result === 'bad' ? sign : 0,
  };
}

/** One report changing verdict: the project keeps its count (and its row) and moves one tally. */
function verdictMoved(from: string, to: Verdict) {
  const removed = countsDelta(from, -1);
  const added = countsDelta(to, 1);
  return { reports: 0, good: removed.good + added.good, decent: removed.decent + added.decent, bad: removed.bad + added.bad };
}

function analysisColumns(analysis: Analysis) {
  return {
    result: analysis.result,
    score: analysis.score,
    issues_high: analysis.issues.high,
    issues_medium: analysis.issues.medium,
    issues_low: analysis.issues.low,
    page: JSON.stringify(analysis.page),
    results: JSON.stringify(analysis.results),
    generated_at: analysis.generatedAt.toISOString(),
  };
}

export function createReportService(db: Kysely<Database>, analyze: Analyzer, slots: AnalysisSlots, listIndex?: ListIndex) {
  /** Fetch problems are the caller's input problem (422 on url), never a half-made report. */
  async function analyzeOrReject(userId: number, url: string): Promise<Analysis> {
    try {
      return await slots.run(userId, () => analyze(url));
    } catch (error) {
      if (error instanceof FetchError) {
        throw new ValidationError('url', `The page could not be analysed: ${error.reason}`);
      }
      throw error;
    }
  }

  /**
   * The report as it is once its project's row is locked (see lockProject), so a project delete or
   * another change to the project's reports cannot interleave with the caller's.
   */
  async function lockedReport(trx: Kysely<Database>, userId: number, id: number) {
    const seen = await reportRepository.findReport(trx, userId, id);
    if (!seen) throw new NotFoundError();
    await lockProject(trx, userId, seen.project);
    const current = await reportRepository.findReport(trx, userId, id);
    if (!current) throw new NotFoundError();
    return current;
  }

  async function show(userId: number, id: number): Promise<Report> {
    const row = await reportRepository.findReport(db, userId, id);
    if (!row) throw new NotFoundError();
    return toReport(row);
  }

  const searchCounts = createCountCache();

  /**
   * How many of the account's reports match: exact, and never counted twice between changes.
   * `knownVersion`: the account's reports version as the caller read it before this (else read here).
   */
  async function countMatching(userId: number, filters: ReportFilters, knownVersion?: number): Promise<number> {
    // Without a search, the project rows hold the count (kept exact with every report change).
    if (!filters.search) return sumProjectCounts(db, userId, filters.result ?? 'reports', filters.project);
    const version = knownVersion ?? (await readReportsVersion(db, userId));
    const key = JSON.stringify([userId, version, filters.search, filters.project ?? null, filters.result ?? null]);
    return searchCounts.get(key, () => reportRepository.countReports(db, userId, filters));
  }

  async function listPage<Items extends PageItems>(
    userId: number,
    options: ReportListOptions,
    readPage: (db: Kysely<Database>, userId: number, query: reportRepository.ReportListOptions) => Promise<Items>,
    knownVersion?: number,
  ): Promise<PageOf<Items>> {
    const filters = { search: options.search, project: options.project, result: options.result };
    const window = pageWindow(options.page, options.perPage);
    const { items, total } = await pageAndTotal(
      window,
      () => readPage(db, userId, { ...filters, sortBy: options.sortBy, sort: options.sort, ...window }),
      () => countMatching(userId, filters, knownVersion),
    );
    return { items, total, page: options.page, perPage: options.perPage };
  }

  return {
    show,

    /** show() as the API's JSON text, for answering without parsing and serialising it again. */
    async showJson(userId: number, id: number): Promise<JsonText> {
      const json = await reportRepository.findReportJson(db, userId, id);
      if (json === undefined) throw new NotFoundError();
      return json;
    },

    async list(userId: number, options: ReportListOptions): Promise<Page<ReportSummary>> {
      return listPage(userId, options, async (...args) => (await reportRepository.listReports(...args)).map(toReportSummary));
    },

    /**
     * A list without a search from the account's in-memory index at `reportsVersion` (the version the
     * request read with its API key), or undefined: a search, or no index for that version (yet; this
     * ask counts towards building one, so ask once a request). See list-index.ts.
     */
    listFromIndex(userId: number, options: ReportListOptions, reportsVersion: number): JsonPage | undefined {
      if (listIndex === undefined || options.search) return undefined;
      const { project, result, sortBy, sort, page, perPage } = options;
      const found = listIndex.page(userId, reportsVersion, { project, result, sortBy, sort, ...pageWindow(page, perPage) });
      return found === undefined ? undefined : { ...found, page, perPage };
    },

    /**
     * list() read from the database, each item as the API's JSON text. `reportsVersion`: the account's
     * reports version as the request read it with its API key, so a search's count needs no read of its own.
     */
    async listJson(userId: number, options: ReportListOptions, reportsVersion?: number): Promise<JsonPage> {
      return listPage(userId, options, reportRepository.listReportItemsJoined, reportsVersion);
    },

    async create(userId: number, input: CreateReportInput): Promise<Report> {
      const target = parseTargetUrl(input.url);
      if (!target.ok) throw new ValidationError('url', target.message);
      const password = input.privacy === 2 ? checkPassword(input.password) : undefined;
      const analysis = await analyzeOrReject(userId, target.url);
      const passwordHash = password === undefined ? null : await hashPassword(password);
      const now = new Date().toISOString();
      const row = {
        user_id: userId,
        url: target.url,
        project: target.project,
        privacy: input.privacy,
        password_hash: passwordHash,
        ...analysisColumns(analysis),
        created_at: now,
        updated_at: now,
      };
      const id = await db.transaction().execute(async (trx) => {
        // The project's row before the report: writing a report moves the account's reports version,
        // and every transaction takes the project's row before the account's (reports-version.ts).
        await adjustProjectCounts(trx, userId, target.project, countsDelta(analysis.result, 1), now);
        return reportRepository.insertReport(trx, row);
      });
      return toAnalysedReport({ id, ...row }, analysis);
    },

    async update(userId: number, id: number, input: UpdateReportInput): Promise<Report> {
      const existing = await reportRepository.findReport(db, userId, id);
      if (!existing) throw new NotFoundError();
      const patch: { privacy?: number; password_hash?: string | null } = {};
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
      const analysis = input.regenerate ? await analyzeOrReject(userId, existing.url) : null;
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        const current = await lockedReport(trx, userId, id);
        const changes = { ...patch, ...(analysis ? analysisColumns(analysis) : {}), updated_at: now };
        await reportRepository.updateReport(trx, userId, id, changes);
        if (analysis && analysis.result !== current.result) {
          await adjustProjectCounts(trx, userId, current.project, verdictMoved(current.result, analysis.result), now);
        }
      });
      return show(userId, id);
    },

    async remove(userId: number, id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const current = await lockedReport(trx, userId, id);
        await reportRepository.deleteReport(trx, userId, id);
        await adjustProjectCounts(trx, userId, current.project, countsDelta(current.result, -1), new Date().toISOString());
      });
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
