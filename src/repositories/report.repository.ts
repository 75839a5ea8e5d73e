// Reports, always scoped to their owner except for the public report page (findReportById).
import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
import type { Database } from '../db/database.ts';
import type { NewReport, ReportResult, ReportRow } from '../db/tables/report.table.ts';
import { lowerCaseColumnContains, type SortDirection } from './contains-search.ts';
import type { DbExecutor } from './executor.ts';

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
  >
> & { updated_at: string };
/** List items leave out the heavy `results` JSON. */
export type ReportListRow = Omit<ReportRow, 'results'>;

export type ReportSortBy = 'id' | 'generated_at' | 'url' | 'result';

export interface ReportFilters {
  /** case-insensitive substring of the url; every character literal */
  search?: string;
  /** exact project name */
  project?: string;
  result?: ReportResult;
}

export interface ReportListOptions extends ReportFilters {
  sortBy: ReportSortBy;
  sort: SortDirection;
  limit: number;
  offset: number;
}

const RESULT_RANK: Record<ReportResult, number> = { bad: 0, decent: 1, good: 2 };

const SORT_COLUMN = { id: 'id', generated_at: 'generated_at', url: 'url', result: 'result_rank' } as const;

const LIST_COLUMNS = [
  'id',
  'user_id',
  'url',
  'url_lower',
  'project',
  'privacy',
  'password_hash',
  'result',
  'result_rank',
  'score',
  'issues_high',
  'issues_medium',
  'issues_low',
  'page',
  'generated_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ReportListRow)[];

export async function insertReport(db: DbExecutor, report: ReportInsert): Promise<number> {
  const { id } = await db
    .insertInto('reports')
    .values({ ...report, url_lower: report.url.toLowerCase(), result_rank: RESULT_RANK[report.result] })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function findReport(db: DbExecutor, userId: number, id: number): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** Any account's report: only for pages whose access rules (privacy) the caller enforces. */
export async function findReportById(db: DbExecutor, id: number): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One page, ordered by the sort key then id in the same direction, so pages never overlap. */
export async function listReports(
  db: DbExecutor,
  userId: number,
  options: ReportListOptions,
): Promise<ReportListRow[]> {
  const sortColumn = SORT_COLUMN[options.sortBy];
  let query = db.selectFrom('reports').select(LIST_COLUMNS).where(matching(userId, options));
  if (sortColumn !== 'id') query = query.orderBy(sortColumn, options.sort);
  return query.orderBy('id', options.sort).limit(options.limit).offset(options.offset).execute();
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
  const derived = patch.result === undefined ? {} : { result_rank: RESULT_RANK[patch.result] };
  const result = await db
    .updateTable('reports')
    .set({ ...patch, ...derived })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteReport(db: DbExecutor, userId: number, id: number): Promise<number> {
  const result = await db.deleteFrom('reports').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteReportsOfProject(db: DbExecutor, userId: number, project: string): Promise<number> {
  const result = await db
    .deleteFrom('reports')
    .where('user_id', '=', userId)
    .where('project', '=', project)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The owner predicate always comes first; the result filter goes through result_rank so one index
 * (user_id, result_rank, ...) serves both the filter and the sort by result. */
function matching(userId: number, filters: ReportFilters) {
  return (eb: ExpressionBuilder<Database, 'reports'>) => {
    const conditions: Expression<SqlBool>[] = [eb('user_id', '=', userId)];
    if (filters.project !== undefined) conditions.push(eb('project', '=', filters.project));
    if (filters.result !== undefined) conditions.push(eb('result_rank', '=', RESULT_RANK[filters.result]));
    if (filters.search) conditions.push(lowerCaseColumnContains('url_lower', filters.search));
    return eb.and(conditions);
  };
}
