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
import { adjustProjectCounts, lockProject } from '../repositories/project.repository.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { toAnalysedReport, toReport } from './report-view.ts';
import type { Privacy, Report } from './types.ts';
import type { AnalysisSlots } from './analysis-slots.ts';

const MAX_PASSWORD_LENGTH = 128;

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

export function createReportService(db: Kysely<Database>, analyze: Analyzer, slots: AnalysisSlots) {
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

  return {
    show,

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
        // The project's row first: every transaction that changes a project's reports takes its row
        // before anything else, so two never wait on each other in a cycle on PostgreSQL.
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

