// Which queue jobs a report's analysis or a crawl has now (docs/production.md, "When the queue loses
// jobs"): their ids are made from the row's job_generation, so every change here is a compare-and-set
// on it. Of two processes that find the same job lost, one queues it again; a job of an older
// generation, if it turns up, finds it is no longer the report's and does nothing.
import { sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Database } from '../db/database.ts';
import type { RunTrigger } from '../db/tables/report-run.table.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { DbExecutor } from './executor.ts';
import type { LabProfileName } from '../lab/lab-types.ts';

const IN_PROGRESS = ['queued', 'running'] as const;

/** What the sweep reads of a report whose analysis may have been lost. */
export interface ReportJobRow {
  id: number;
  organization_id: number;
  state: string;
  updated_at: string;
  runs_count: number;
  job_generation: number;
  job_attempt: number;
  job_trigger: string | null;
  job_render: number;
  /** the lab audit's profile (lab=1); null: none */
  job_lab: string | null;
}

/**
 * A new analysis was asked for (the report was just marked queued): its job gets the next generation,
 * as attempt 1. Returns the generation, or undefined when the report is not queued or running.
 */
export async function startReportJobGeneration(
  db: DbExecutor,
  organizationId: number,
  reportId: number,
  job: { trigger: RunTrigger; render: boolean; lab?: LabProfileName },
): Promise<number | undefined> {
  const row = await db
    .updateTable('reports')
    .set((eb) => ({
      job_generation: eb('job_generation', '+', 1),
      job_attempt: 1,
      job_trigger: job.trigger,
      job_render: job.render ? 1 : 0,
      job_lab: job.lab ?? null,
    }))
    .where('organization_id', '=', organizationId)
    .where('id', '=', reportId)
    .where('state', 'in', IN_PROGRESS)
    .returning('job_generation')
    .executeTakeFirst();
  return row?.job_generation;
}

const REPORT_JOB_COLUMNS = ['id', 'organization_id', 'state', 'updated_at', 'runs_count', 'job_generation', 'job_attempt', 'job_trigger', 'job_render', 'job_lab'] as const;

/**
 * Queued or running reports unchanged since before `before`, the longest unchanged first, from after
 * `after` (the last row of the page before). The state condition is written out (not bound) so that
 * SQLite, too, reads the partial index made for it.
 */
export async function staleReportsInProgress(
  db: DbExecutor,
  before: string,
  limit: number,
  after?: Pick<ReportJobRow, 'updated_at' | 'id'>,
): Promise<ReportJobRow[]> {
  let query = db
    .selectFrom('reports')
    .select(REPORT_JOB_COLUMNS)
    .where(sql<boolean>`state in ('queued', 'running')`)
    .where('updated_at', '<', before);
  if (after !== undefined) {
    query = query.where((eb) =>
      eb.or([eb('updated_at', '>', after.updated_at), eb.and([eb('updated_at', '=', after.updated_at), eb('id', '>', after.id)])]),
    );
  }
  return query.orderBy('updated_at').orderBy('id').limit(limit).execute();
}

/** One report's, for results=1 on a report still being analysed. */
export async function findReportJob(db: DbExecutor, organizationId: number, reportId: number): Promise<ReportJobRow | undefined> {
  return db.selectFrom('reports').select(REPORT_JOB_COLUMNS).where('organization_id', '=', organizationId).where('id', '=', reportId).executeTakeFirst();
}

/** The compare-and-set on what was read: nothing about the report changed since. */
type ReportUpdate = UpdateQueryBuilder<Database, 'reports', 'reports', UpdateResult>;

function unchangedSince(query: ReportUpdate, row: ReportJobRow): ReportUpdate {
  return query
    .where('id', '=', row.id)
    .where('organization_id', '=', row.organization_id)
    .where('state', 'in', IN_PROGRESS)
    .where('job_generation', '=', row.job_generation)
    .where('updated_at', '=', row.updated_at);
}

/** Queues the lost analysis again as its next attempt: true when this call did (the generation is one up). */
export async function requeueLostReport(db: DbExecutor, row: ReportJobRow, now: string, trigger: RunTrigger): Promise<boolean> {
  const query = db.updateTable('reports').set({
    state: 'queued',
    updated_at: now,
    job_generation: row.job_generation + 1,
    job_attempt: Math.max(row.job_attempt, 1) + 1,
    job_trigger: trigger,
  });
  const result = await unchangedSince(query, row).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The lost analysis failed (its last attempt, or another took its place): true when this call said so. */
export async function failLostReport(db: DbExecutor, row: ReportJobRow, now: string, message: string): Promise<boolean> {
  const query = db.updateTable('reports').set({ state: 'failed', last_error: message, updated_at: now, job_generation: row.job_generation + 1 });
  const result = await unchangedSince(query, row).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The analysis job of `generation` starts (queued -> running, or running again after its process
 * died): false when the report is no longer being analysed, or another job took this one's place.
 * A job queued before generations existed has none, and is the report's only while it has none.
 */
export async function startReportRun(db: DbExecutor, organizationId: number, reportId: number, generation: number | undefined, now: string): Promise<boolean> {
  return moveReportOfGeneration(db, organizationId, reportId, generation, { state: 'running', updated_at: now });
}

/** The analysis job of `generation` failed for good: the report failed, unless another job took its place. */
export async function failReportRun(
  db: DbExecutor,
  organizationId: number,
  reportId: number,
  generation: number | undefined,
  change: { message: string; now: string },
): Promise<boolean> {
  return moveReportOfGeneration(db, organizationId, reportId, generation, { state: 'failed', last_error: change.message, updated_at: change.now });
}

/** Moves a report still being analysed by the job of `generation` (none: 0, a job from before generations). */
async function moveReportOfGeneration(
  db: DbExecutor,
  organizationId: number,
  reportId: number,
  generation: number | undefined,
  set: { state: 'running' | 'failed'; updated_at: string; last_error?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set(set)
    .where('organization_id', '=', organizationId)
    .where('id', '=', reportId)
    .where('state', 'in', IN_PROGRESS)
    .where('job_generation', '=', generation ?? 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Queued or running crawls whose current jobs were queued before `before` (or that were made then), by id after `afterId`. */
export async function staleCrawlsInProgress(db: DbExecutor, before: string, limit: number, afterId = 0): Promise<CrawlRow[]> {
  return db
    .selectFrom('crawls')
    .selectAll()
    .where('state', 'in', IN_PROGRESS)
    .where((eb) => eb(eb.fn.coalesce('jobs_queued_at', 'created_at'), '<', before))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The crawl's jobs were lost: the next generation takes over. True when this call moved it on. */
export async function resumeLostCrawl(db: DbExecutor, crawl: Pick<CrawlRow, 'id' | 'job_generation'>, now: string): Promise<boolean> {
  const result = await db
    .updateTable('crawls')
    .set({ job_generation: crawl.job_generation + 1, jobs_queued_at: now })
    .where('id', '=', crawl.id)
    .where('state', 'in', IN_PROGRESS)
    .where('job_generation', '=', crawl.job_generation)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
