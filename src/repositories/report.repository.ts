// Reports, always scoped to their owner except for the public report page (findReportById). A report
// is a row of `reports` plus its runs in `report_runs`; the row repeats the latest run's summary for
// lists, and the functions here keep the two together.
import type { ExpressionBuilder, Expression, SelectQueryBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/database.ts';
import { RESULT_RANK, type NewReport, type ReportResult, type ReportRow, type ReportState } from '../db/tables/report.table.ts';
import type { ReportRunRow, RunTrigger } from '../db/tables/report-run.table.ts';
import { containsPattern, lowerCaseColumnLike, type SortDirection } from './contains-search.ts';
import { inOneTransaction, statementChunks, type DbExecutor } from './executor.ts';

/**
 * What a caller supplies: the report and, when it was analysed, its first run's columns and results.
 * url_lower, result_rank and the run counters are derived here so they never drift.
 */
export type ReportInsert = Omit<NewReport, 'id' | 'url_lower' | 'result_rank' | 'runs_count' | 'last_run_number'>;
/** The fields a request may change; updated_at is required so every change is stamped. */
export type ReportPatch = Partial<Pick<ReportInsert, 'privacy' | 'password_hash' | 'state' | 'last_error' | 'schedule' | 'next_run_at'>> & {
  updated_at: string;
};
/** A successful analysis, to be stored as the report's next run (which numbers it); `rendered` only with render=1, `lab` and `lab_profile` only with lab=1. */
export type RunColumns = Omit<ReportRunRow, 'id' | 'report_id' | 'number' | 'trigger' | RunOnlyColumns> & Partial<Pick<ReportRunRow, RunOnlyColumns>>;
/** A run's columns that the report's row does not repeat: its latest run's are read from report_runs. */
type RunOnlyColumns = 'rendered' | 'lab' | 'lab_profile' | 'structured_data';
/** List items leave out the heavy `results` JSON, the rendering and the lab audit (they never read report_runs). */
export type ReportListRow = Omit<ReportRow, 'results' | 'rendered' | 'lab' | 'structured_data'>;

export type ReportSortBy = 'id' | 'generated_at' | 'url' | 'result' | 'score';

export interface ReportFilters {
  /** case-insensitive substring of the url; every character literal */
  search?: string;
  /** exact project name */
  project?: string;
  result?: ReportResult;
  state?: ReportState;
}

interface ReportSortOptions extends ReportFilters {
  sortBy: ReportSortBy;
  sort: SortDirection;
}

export interface ReportListOptions extends ReportSortOptions {
  limit: number;
  offset: number;
}

/** The rank of a report without a run: below every verdict, so no result filter matches it. */
const NO_RUN_RANK = -1;

const SORT_COLUMN = { id: 'id', generated_at: 'generated_at', url: 'url', result: 'result_rank', score: 'score' } as const;

export async function insertReport(db: DbExecutor, report: ReportInsert, trigger: RunTrigger = 'create'): Promise<number> {
  return inOneTransaction(db, async (trx) => {
    const { id } = await trx.insertInto('reports').values(derivedColumns(report)).returning('id').executeTakeFirstOrThrow();
    // A report created to be analysed in the background has no run until its first analysis succeeds.
    const run = firstRun(id, report, trigger);
    if (run !== null) await trx.insertInto('report_runs').values(run).execute();
    return id;
  });
}

/**
 * Inserts many reports in multi-row statements, all in one transaction (the caller's, when `db` is
 * one): for seeding and imports, where one statement per report would take minutes per million.
 */
export async function insertReportsBulk(db: DbExecutor, reports: readonly ReportInsert[]): Promise<void> {
  const rows = reports.map(derivedColumns);
  await inOneTransaction(db, async (trx) => {
    let offset = 0;
    for (const chunk of statementChunks(rows)) {
      const inserted = await trx.insertInto('reports').values(chunk).returning('id').execute();
      // One statement numbers its rows in VALUES order on both dialects (SQLite's next rowid, one
      // nextval per row), though RETURNING need not list them in that order: sorted ids line up.
      const ids = inserted.map(({ id }) => id).sort((a, b) => a - b);
      const runs = ids.flatMap((id, index) => firstRun(id, reports[offset + index]) ?? []);
      for (const runChunk of statementChunks(runs)) await trx.insertInto('report_runs').values(runChunk).execute();
      offset += chunk.length;
    }
  });
}

export async function findReport(db: DbExecutor, organizationId: number, id: number): Promise<ReportRow | undefined> {
  return withResults(db).where('reports.organization_id', '=', organizationId).where('reports.id', '=', id).executeTakeFirst();
}

/** The account's report without its results (what lists and events show). */
export async function findReportRow(db: DbExecutor, organizationId: number, id: number): Promise<ReportListRow | undefined> {
  return db.selectFrom('reports').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/**
 * The id of the account's newest report of this (normalised) URL made before `beforeId` (every
 * report when undefined): what a new report of the same page duplicates. Uses the (organization_id, url, id) index.
 */
export async function findNewestReportIdOfUrl(db: DbExecutor, organizationId: number, url: string, beforeId?: number): Promise<number | null> {
  let query = db.selectFrom('reports').select('id').where('organization_id', '=', organizationId).where('url', '=', url);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  const row = await query.orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.id ?? null;
}

/** Any account's report: only for pages whose access rules (privacy) the caller enforces. */
export async function findReportById(db: DbExecutor, id: number): Promise<ReportRow | undefined> {
  return withResults(db).where('reports.id', '=', id).executeTakeFirst();
}

/** One page, ordered by the sort key then id in the same direction, so pages never overlap. */
export async function listReports(db: DbExecutor, organizationId: number, options: ReportListOptions): Promise<ReportListRow[]> {
  return pageRows(db, organizationId, options).selectAll().execute();
}

/** From this offset on a page's ids are read before its rows; below it that costs more than it saves. */
const DEEP_PAGE_OFFSET = 1_000;

/** The page's rows to select from. */
function pageRows(db: DbExecutor, organizationId: number, options: ReportListOptions) {
  const deep = options.offset >= DEEP_PAGE_OFFSET;
  if (!options.search && !deep) return pageQuery(db, organizationId, options);
  // The page's ids first, from an index alone, then only the page's own rows. A search tests
  // url_lower, which every sort index holds, so it walks an index instead of reading each report's row;
  // a deep page skips thousands of entries, and PostgreSQL would fetch each skipped row from the table.
  // Asking for url_lower beside the id keeps SQLite on the narrow indexes.
  const ids = options.search
    ? pageQuery(db, organizationId, options).select('id')
    : db.selectFrom(pageQuery(db, organizationId, options).select(['id', 'url_lower']).as('page')).select('page.id');
  return ordered(db.selectFrom('reports').where('id', 'in', ids), options);
}

function pageQuery(db: DbExecutor, organizationId: number, options: ReportListOptions) {
  return ordered(db.selectFrom('reports').where(matching(organizationId, options)), options).limit(options.limit).offset(options.offset);
}

/**
 * By the sort key, then id in the same direction, so pages never overlap. A report without a run has
 * no generated_at: it sorts first ascending and last descending on both dialects (SQLite's own order
 * for null, and PostgreSQL's generated_at indexes are NULLS FIRST to match). Nor has it a score, and
 * that one sorts last in both directions (docs/api.md, `sort_by`): SQLite walks its one score index
 * in two passes, PostgreSQL has an index for each direction. A result filter never matches such a report, so there
 * the score sort says nothing of nulls, and one index per filter serves both directions on both.
 */
function ordered<Query extends SelectQueryBuilder<Database, 'reports', object>>(query: Query, options: ReportSortOptions): Query {
  const sortColumn = SORT_COLUMN[options.sortBy];
  let bySortKey: SelectQueryBuilder<Database, 'reports', object> = query;
  if (sortColumn === 'generated_at') {
    bySortKey = query.orderBy('generated_at', (order) => (options.sort === 'asc' ? order.asc().nullsFirst() : order.desc().nullsLast()));
  } else if (sortColumn === 'score' && options.result === undefined) {
    bySortKey = query.orderBy('score', (order) => (options.sort === 'asc' ? order.asc() : order.desc()).nullsLast());
  } else if (sortColumn !== 'id') {
    bySortKey = query.orderBy(sortColumn, options.sort);
  }
  return bySortKey.orderBy('id', options.sort) as Query;
}

/** A list read whole, in batches (an export): its filters and sort, and how many rows a batch holds. */
export interface ReportBatchOptions extends ReportSortOptions {
  limit: number;
}

/**
 * The next `limit` reports of the list after `after` (the previous batch's last row; none: from the
 * start), in the list's order. Each batch seeks past `after` in the sort index instead of skipping
 * what came before it, so reading a list of any length whole costs one index walk. Rows whose sort key
 * is null (generated_at, score: reports without a run) come in a stretch of their own, by id, before
 * or after the others as ordered() places them; a batch may end one stretch and start the next.
 */
export async function listReportsAfter(
  db: DbExecutor,
  organizationId: number,
  options: ReportBatchOptions,
  after?: ReportListRow,
): Promise<ReportListRow[]> {
  const stretches = sortStretches(options);
  let index = after === undefined ? 0 : stretches.indexOf(after[SORT_COLUMN[options.sortBy]] === null ? 'null' : 'value');
  let rows = await stretchRows(db, organizationId, options, stretches[index], options.limit, after);
  while (rows.length < options.limit && ++index < stretches.length) {
    rows = [...rows, ...(await stretchRows(db, organizationId, options, stretches[index], options.limit - rows.length))];
  }
  return rows;
}

type Stretch = 'value' | 'null';

/** The stretches of a list in its order: a nullable sort key's null rows before or after the rest. */
function sortStretches(options: ReportSortOptions): Stretch[] {
  const column = SORT_COLUMN[options.sortBy];
  if (column === 'generated_at') return options.sort === 'asc' ? ['null', 'value'] : ['value', 'null'];
  if (column === 'score') return ['value', 'null'];
  return ['value'];
}

/** Up to `limit` rows of one stretch, after `after` when it is in this stretch, in the list's order. */
function stretchRows(db: DbExecutor, organizationId: number, options: ReportBatchOptions, stretch: Stretch, limit: number, after?: ReportListRow) {
  const column = SORT_COLUMN[options.sortBy];
  const later = options.sort === 'asc' ? '>' : '<';
  let query = db.selectFrom('reports').selectAll().where(matching(organizationId, options));
  if (stretch === 'null') {
    query = query.where(column, 'is', null);
    if (after !== undefined) query = query.where('id', later, after.id);
    return query.orderBy('id', options.sort).limit(limit).execute();
  }
  if (sortStretches(options).includes('null')) query = query.where(column, 'is not', null);
  if (after !== undefined) {
    // (key, id) past the last row's as one row value: both dialects seek to it in the index.
    query =
      column === 'id'
        ? query.where('id', later, after.id)
        : query.where((eb) => eb(eb.refTuple(column, 'id'), later, eb.tuple(after[column]!, after.id)));
  }
  return ordered(query, options).limit(limit).execute();
}

export async function countReports(db: DbExecutor, organizationId: number, filters: ReportFilters): Promise<number> {
  const { count } = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(matching(organizationId, filters))
    .executeTakeFirstOrThrow();
  return count;
}

/** Returns how many rows changed: 0 when the report is not the user's. */
export async function updateReport(db: DbExecutor, organizationId: number, id: number, patch: ReportPatch): Promise<number> {
  const updated = await db.updateTable('reports').set(patch).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(updated.numUpdatedRows);
}

/**
 * Stores a successful analysis as the report's next run (its number one past the last, never reused),
 * makes it the report's latest with `patch`, and deletes the oldest runs past the newest `keep`.
 * `report` is the row as read inside the transaction that locked the report's project.
 */
export async function addRun(
  db: DbExecutor,
  report: Pick<ReportListRow, 'id' | 'organization_id' | 'runs_count' | 'last_run_number'>,
  run: RunColumns & { trigger: RunTrigger },
  options: { keep: number; patch: ReportPatch },
): Promise<number> {
  return inOneTransaction(db, async (trx) => {
    const number = report.last_run_number + 1;
    await trx.insertInto('report_runs').values({ ...run, report_id: report.id, number }).execute();
    const { results: _results, trigger: _trigger, rendered: _rendered, lab: _lab, lab_profile: _labProfile, structured_data: _structuredData, ...summary } = run;
    await trx
      .updateTable('reports')
      .set({
        ...options.patch,
        ...summary,
        result_rank: RESULT_RANK[run.result],
        last_run_number: number,
        runs_count: Math.min(report.runs_count + 1, options.keep),
      })
      .where('organization_id', '=', report.organization_id)
      .where('id', '=', report.id)
      .execute();
    // Runs are numbered without gaps from the first kept one: only a report past `keep` has one to drop.
    if (report.runs_count + 1 > options.keep) {
      await trx.deleteFrom('report_runs').where('report_id', '=', report.id).where('number', '<=', number - options.keep).execute();
    }
    return number;
  });
}

/** Deleting a report deletes its results too (the foreign key cascades). */
export async function deleteReport(db: DbExecutor, organizationId: number, id: number): Promise<number> {
  const result = await db.deleteFrom('reports').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteReportsOfProject(db: DbExecutor, organizationId: number, project: string): Promise<number> {
  const result = await db.deleteFrom('reports').where('organization_id', '=', organizationId).where('project', '=', project).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Moves the report's analysis state from one of `from` to `to`, only if it is in one of them now (two
 * requests racing to queue the same report: one wins). Returns whether it moved.
 */
export async function moveReportState(
  db: DbExecutor,
  organizationId: number,
  id: number,
  change: { from: readonly ReportState[]; to: ReportState; lastError?: string | null; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({ state: change.to, updated_at: change.now, ...(change.lastError === undefined ? {} : { last_error: change.lastError }) })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('state', 'in', change.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Scheduled reports due by `now`, the longest overdue first, each with the profile its latest run's
 * lab audit was asked under (null: none, or no run yet), which the scheduled run repeats (docs/lab.md).
 */
export async function dueScheduledReports(db: DbExecutor, now: string, limit: number) {
  return db
    .selectFrom('reports')
    .leftJoin('report_runs', (join) =>
      join.onRef('report_runs.report_id', '=', 'reports.id').onRef('report_runs.number', '=', 'reports.last_run_number'),
    )
    .select(['reports.id', 'reports.organization_id', 'reports.schedule', 'reports.next_run_at', 'reports.state', 'report_runs.lab_profile'])
    .where('reports.next_run_at', 'is not', null)
    .where('reports.next_run_at', '<=', now)
    .orderBy('reports.next_run_at')
    .limit(limit)
    .execute();
}

/**
 * Moves a schedule on from the slot `due` to `next`, only if no other process did first: the one
 * process whose change lands runs that slot. Returns whether this one did.
 */
export async function advanceSchedule(db: DbExecutor, id: number, due: string, next: string | null): Promise<boolean> {
  const result = await db.updateTable('reports').set({ next_run_at: next }).where('id', '=', id).where('next_run_at', '=', due).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

function rankOf(result: ReportResult | null): number {
  return result === null ? NO_RUN_RANK : RESULT_RANK[result];
}

function derivedColumns(report: ReportInsert) {
  const { results: _results, rendered: _rendered, lab: _lab, lab_profile: _labProfile, structured_data: _structuredData, ...row } = report;
  const analysed = report.result != null ? 1 : 0;
  return { ...row, url_lower: row.url.toLowerCase(), result_rank: rankOf(row.result ?? null), runs_count: analysed, last_run_number: analysed };
}

/** Run 1 of a report inserted with an analysis; null for one inserted to be analysed later. */
function firstRun(reportId: number, report: ReportInsert, trigger: RunTrigger = 'create') {
  if (report.result == null || report.results == null) return null;
  return {
    report_id: reportId,
    number: 1,
    trigger,
    result: report.result,
    score: report.score!,
    issues_high: report.issues_high!,
    issues_medium: report.issues_medium!,
    issues_low: report.issues_low!,
    page: report.page!,
    results: report.results,
    rendered: report.rendered ?? null,
    lab: report.lab ?? null,
    lab_profile: report.lab_profile ?? null,
    structured_data: report.structured_data ?? null,
    generated_at: report.generated_at!,
  };
}

/** The report and its latest run's results: none (null) before its first run. */
function withResults(db: DbExecutor) {
  return db
    .selectFrom('reports')
    .leftJoin('report_runs', (join) =>
      join.onRef('report_runs.report_id', '=', 'reports.id').onRef('report_runs.number', '=', 'reports.last_run_number'),
    )
    .selectAll('reports')
    .select(['report_runs.results', 'report_runs.rendered', 'report_runs.lab', 'report_runs.structured_data']);
}

/** The owner predicate always comes first; the result filter goes through result_rank so one index
 * (organization_id, result_rank, ...) serves both the filter and the sort by result. */
function matching(organizationId: number, filters: ReportFilters) {
  return (eb: ExpressionBuilder<Database, 'reports'>) => {
    const conditions: Expression<SqlBool>[] = [eb('organization_id', '=', organizationId)];
    if (filters.project !== undefined) conditions.push(eb('project', '=', filters.project));
    if (filters.result !== undefined) conditions.push(eb('result_rank', '=', RESULT_RANK[filters.result]));
    if (filters.state !== undefined) conditions.push(eb('state', '=', filters.state));
    if (filters.search) conditions.push(lowerCaseColumnLike('url_lower', containsPattern(filters.search)));
    return eb.and(conditions);
  };
}
