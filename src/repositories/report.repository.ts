// Reports, always scoped to their owner except for the public report page (findReportById). A report
// is a row of `reports` plus its results in `report_results`; the functions here keep the two together.
import type { ExpressionBuilder, Expression, SelectQueryBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/database.ts';
import type { NewReport, ReportResult, ReportRow, ReportState } from '../db/tables/report.table.ts';
import { containsPattern, lowerCaseColumnLike, type SortDirection } from './contains-search.ts';
import { inOneTransaction, statementChunks, type DbExecutor } from './executor.ts';

/** What a caller supplies; url_lower and result_rank are derived here so they never drift. */
export type ReportInsert = Omit<NewReport, 'id' | 'url_lower' | 'result_rank'>;
/** The mutable fields; updated_at is required so every change is stamped. */
export type ReportPatch = Partial<
  Pick<
    ReportInsert,
    | 'privacy'
    | 'password_hash'
    | 'result'
    | 'score'
    | 'issues_high'
    | 'issues_medium'
    | 'issues_low'
    | 'page'
    | 'results'
    | 'generated_at'
    | 'state'
    | 'last_error'
  >
> & { updated_at: string };
/** List items leave out the heavy `results` JSON (they never read report_results). */
export type ReportListRow = Omit<ReportRow, 'results'>;

export type ReportSortBy = 'id' | 'generated_at' | 'url' | 'result';

export interface ReportFilters {
  /** case-insensitive substring of the url; every character literal */
  search?: string;
  /** exact project name */
  project?: string;
  result?: ReportResult;
  state?: ReportState;
}

export interface ReportListOptions extends ReportFilters {
  sortBy: ReportSortBy;
  sort: SortDirection;
  limit: number;
  offset: number;
}

const RESULT_RANK: Record<ReportResult, number> = { bad: 0, decent: 1, good: 2 };
/** The rank of a report without a run: below every verdict, so no result filter matches it. */
const NO_RUN_RANK = -1;

const SORT_COLUMN = { id: 'id', generated_at: 'generated_at', url: 'url', result: 'result_rank' } as const;

export async function insertReport(db: DbExecutor, report: ReportInsert): Promise<number> {
  const { results, ...row } = report;
  return inOneTransaction(db, async (trx) => {
    const { id } = await trx.insertInto('reports').values(derivedColumns(row)).returning('id').executeTakeFirstOrThrow();
    // A report created to be analysed in the background has no results until its first run.
    if (results !== null) await trx.insertInto('report_results').values({ report_id: id, results }).execute();
    return id;
  });
}

/**
 * Inserts many reports in multi-row statements, all in one transaction (the caller's, when `db` is
 * one): for seeding and imports, where one statement per report would take minutes per million.
 */
export async function insertReportsBulk(db: DbExecutor, reports: readonly ReportInsert[]): Promise<void> {
  const rows = reports.map(({ results: _results, ...row }) => derivedColumns(row));
  await inOneTransaction(db, async (trx) => {
    let offset = 0;
    for (const chunk of statementChunks(rows)) {
      const inserted = await trx.insertInto('reports').values(chunk).returning('id').execute();
      // One statement numbers its rows in VALUES order on both dialects (SQLite's next rowid, one
      // nextval per row), though RETURNING need not list them in that order: sorted ids line up.
      const ids = inserted.map(({ id }) => id).sort((a, b) => a - b);
      const results = ids.flatMap((id, index) => {
        const stored = reports[offset + index].results;
        return stored === null ? [] : [{ report_id: id, results: stored }];
      });
      if (results.length > 0) await trx.insertInto('report_results').values(results).execute();
      offset += chunk.length;
    }
  });
}

export async function findReport(db: DbExecutor, userId: number, id: number): Promise<ReportRow | undefined> {
  return withResults(db).where('reports.user_id', '=', userId).where('reports.id', '=', id).executeTakeFirst();
}

/** Any account's report: only for pages whose access rules (privacy) the caller enforces. */
export async function findReportById(db: DbExecutor, id: number): Promise<ReportRow | undefined> {
  return withResults(db).where('reports.id', '=', id).executeTakeFirst();
}

/** One page, ordered by the sort key then id in the same direction, so pages never overlap. */
export async function listReports(db: DbExecutor, userId: number, options: ReportListOptions): Promise<ReportListRow[]> {
  return pageRows(db, userId, options).selectAll().execute();
}

/** From this offset on a page's ids are read before its rows; below it that costs more than it saves. */
const DEEP_PAGE_OFFSET = 1_000;

/** The page's rows to select from. */
function pageRows(db: DbExecutor, userId: number, options: ReportListOptions) {
  const deep = options.offset >= DEEP_PAGE_OFFSET;
  if (!options.search && !deep) return pageQuery(db, userId, options);
  // The page's ids first, from an index alone, then only the page's own rows. A search tests
  // url_lower, which every sort index holds, so it walks an index instead of reading each report's row;
  // a deep page skips thousands of entries, and PostgreSQL would fetch each skipped row from the table.
  // Asking for url_lower beside the id keeps SQLite on the narrow indexes.
  const ids = options.search
    ? pageQuery(db, userId, options).select('id')
    : db.selectFrom(pageQuery(db, userId, options).select(['id', 'url_lower']).as('page')).select('page.id');
  return ordered(db.selectFrom('reports').where('id', 'in', ids), options);
}

function pageQuery(db: DbExecutor, userId: number, options: ReportListOptions) {
  return ordered(db.selectFrom('reports').where(matching(userId, options)), options).limit(options.limit).offset(options.offset);
}

/**
 * By the sort key, then id in the same direction, so pages never overlap. A report without a run has
 * no generated_at: it sorts first ascending and last descending on both dialects (SQLite's own order
 * for null, and PostgreSQL's generated_at indexes are NULLS FIRST to match).
 */
function ordered<Query extends SelectQueryBuilder<Database, 'reports', object>>(query: Query, options: ReportListOptions): Query {
  const sortColumn = SORT_COLUMN[options.sortBy];
  let bySortKey: SelectQueryBuilder<Database, 'reports', object> = query;
  if (sortColumn === 'generated_at') {
    bySortKey = query.orderBy('generated_at', (order) => (options.sort === 'asc' ? order.asc().nullsFirst() : order.desc().nullsLast()));
  } else if (sortColumn !== 'id') {
    bySortKey = query.orderBy(sortColumn, options.sort);
  }
  return bySortKey.orderBy('id', options.sort) as Query;
}

export async function countReports(db: DbExecutor, userId: number, filters: ReportFilters): Promise<number> {
  const { count } = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(matching(userId, filters))
    .executeTakeFirstOrThrow();
  return count;
}

/** Returns how many rows changed: 0 when the report is not the user's. */
export async function updateReport(db: DbExecutor, userId: number, id: number, patch: ReportPatch): Promise<number> {
  const { results, ...columns } = patch;
  const derived = columns.result === undefined ? {} : { result_rank: rankOf(columns.result) };
  return inOneTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('reports')
      .set({ ...columns, ...derived })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return 0;
    if (results !== undefined && results !== null) {
      // A report's first run adds its results; every later one replaces them.
      await trx
        .insertInto('report_results')
        .values({ report_id: id, results })
        .onConflict((conflict) => conflict.column('report_id').doUpdateSet({ results }))
        .execute();
    }
    return 1;
  });
}

/** Deleting a report deletes its results too (the foreign key cascades). */
export async function deleteReport(db: DbExecutor, userId: number, id: number): Promise<number> {
  const result = await db.deleteFrom('reports').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteReportsOfProject(db: DbExecutor, userId: number, project: string): Promise<number> {
  const result = await db.deleteFrom('reports').where('user_id', '=', userId).where('project', '=', project).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Moves the report's analysis state from one of `from` to `to`, only if it is in one of them now (two
 * requests racing to queue the same report: one wins). Returns whether it moved.
 */
export async function moveReportState(
  db: DbExecutor,
  userId: number,
  id: number,
  change: { from: readonly ReportState[]; to: ReportState; lastError?: string | null; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({ state: change.to, updated_at: change.now, ...(change.lastError === undefined ? {} : { last_error: change.lastError }) })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('state', 'in', change.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

function rankOf(result: ReportResult | null): number {
  return result === null ? NO_RUN_RANK : RESULT_RANK[result];
}

function derivedColumns(row: Omit<ReportInsert, 'results'>) {
  return { ...row, url_lower: row.url.toLowerCase(), result_rank: rankOf(row.result ?? null) };
}

/** The report and its results: none (null) before its first run. */
function withResults(db: DbExecutor) {
  return db
    .selectFrom('reports')
    .leftJoin('report_results', 'report_results.report_id', 'reports.id')
    .selectAll('reports')
    .select('report_results.results');
}

/** The owner predicate always comes first; the result filter goes through result_rank so one index
 * (user_id, result_rank, ...) serves both the filter and the sort by result. */
function matching(userId: number, filters: ReportFilters) {
  return (eb: ExpressionBuilder<Database, 'reports'>) => {
    const conditions: Expression<SqlBool>[] = [eb('user_id', '=', userId)];
    if (filters.project !== undefined) conditions.push(eb('project', '=', filters.project));
    if (filters.result !== undefined) conditions.push(eb('result_rank', '=', RESULT_RANK[filters.result]));
    if (filters.state !== undefined) conditions.push(eb('state', '=', filters.state));
    if (filters.search) conditions.push(lowerCaseColumnLike('url_lower', containsPattern(filters.search)));
    return eb.and(conditions);
  };
}
