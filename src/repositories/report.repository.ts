// Reports, always scoped to their owner except for the public report page (findReportById). A report
// is a row of `reports` plus its results in `report_results`; the functions here keep the two together.
import type { ExpressionBuilder, Expression, SelectQueryBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/database.ts';
import type { NewReport, ReportResult, ReportRow } from '../db/tables/report.table.ts';
import { preparedRead } from '../db/prepared-reads.ts';
import { containsPattern, lowerCaseColumnLike, type SortDirection } from './contains-search.ts';
import { inOneTransaction, statementChunks, type DbExecutor } from './executor.ts';
import { itemJson, reportJson, summaryJson } from './report-summary-json.ts';
import { joinedItems, selectJoinedItems, SQLITE_REPORT_ITEM, type JoinedItems } from './joined-items-json.ts';
import { bumpReportsVersion } from './reports-version.ts';

/** What a caller supplies; url_lower, result_rank and summary_json are derived here so they never drift. */
export type ReportInsert = Omit<NewReport, 'id' | 'url_lower' | 'result_rank' | 'summary_json'>;
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
/** List items leave out the heavy `results` JSON (they never read report_results). */
export type ReportListRow = Omit<ReportRow, 'results'>;
/** Text of JSON, ready to send. */
export type JsonText = string;

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


export async function insertReport(db: DbExecutor, report: ReportInsert): Promise<number> {
  const { results, ...row } = report;
  return inOneTransaction(db, async (trx) => {
    const { id } = await trx.insertInto('reports').values(derivedColumns(row)).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('report_results').values({ report_id: id, results }).execute();
    await bumpReportsVersion(trx, [row.user_id]);
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
      const results = ids.map((id, index) => ({ report_id: id, results: reports[offset + index].results }));
      await trx.insertInto('report_results').values(results).execute();
      offset += chunk.length;
    }
    await bumpReportsVersion(trx, [...new Set(rows.map((row) => row.user_id))]);
  });
}

export async function findReport(db: DbExecutor, userId: number, id: number): Promise<ReportRow | undefined> {
  return withResults(db).where('reports.user_id', '=', userId).where('reports.id', '=', id).executeTakeFirst();
}

/** The report with its results as the API's JSON, read as two texts and never parsed. */
export async function findReportJson(db: DbExecutor, userId: number, id: number): Promise<JsonText | undefined> {
  const [row] = await readReportJson(db, null, { userId, id });
  return row && reportJson(row.id, row.summary_json, row.results);
}

const readReportJson = preparedRead((db, _shape: null, p: { userId: number; id: number }) =>
  joinResults(db)
    .select(['reports.id', 'reports.summary_json', 'report_results.results'])
    .where('reports.user_id', '=', p.userId)
    .where('reports.id', '=', p.id),
);

/** Any account's report: only for pages whose access rules (privacy) the caller enforces. */
export async function findReportById(db: DbExecutor, id: number): Promise<ReportRow | undefined> {
  return withResults(db).where('reports.id', '=', id).executeTakeFirst();
}

/** One page, ordered by the sort key then id in the same direction, so pages never overlap. */
export async function listReports(
  db: DbExecutor,
  userId: number,
  options: ReportListOptions,
): Promise<ReportListRow[]> {
  return readListRows(db, pageShape(options), pageParams(userId, options));
}

const readListRows = preparedRead((db, shape: PageShape, p: PageParams) => pageRows(db, shape, p).selectAll());

/** The same page as listReports, each item as the API's JSON from its stored summary. */
export async function listReportItems(db: DbExecutor, userId: number, options: ReportListOptions): Promise<JsonText[]> {
  const rows = await readListItems(db, pageShape(options), pageParams(userId, options));
  return rows.map((row) => itemJson(row.id, row.summary_json));
}

const readListItems = preparedRead((db, shape: PageShape, p: PageParams) => pageRows(db, shape, p).select(['id', 'summary_json']));

/** The same page as listReportItems, its items joined into one JSON text (joined-items-json.ts). */
export async function listReportItemsJoined(db: DbExecutor, userId: number, options: ReportListOptions): Promise<JoinedItems> {
  return joinedItems(
    db,
    () => readJoinedItems(db, pageShape(options), pageParams(userId, options)),
    () => listReportItems(db, userId, options),
  );
}

const readJoinedItems = preparedRead((db, shape: PageShape, p: PageParams) =>
  selectJoinedItems(db, pageRows(db, shape, p).select(['id', 'summary_json']).as('page'), SQLITE_REPORT_ITEM),
);

/** The page's rows to select from, for every kind of list read. */
function pageRows(db: DbExecutor, shape: PageShape, p: PageParams) {
  if (!shape.search && !shape.deep) return pageQuery(db, shape, p);
  // The page's ids first, from an index alone, then only the page's own rows. A search tests url_lower
  // on the account's reports one by one: a single query let SQLite walk the wide summary index instead
  // and read each report's row for its url (at a million reports 6 ms a page instead of 0.5). A deep
  // page skips thousands of rows first: PostgreSQL fetched each skipped row from the table, SQLite read
  // each one's entry in the wide summary index (page 100 of 10,000 reports: 3.9 ms; its ids from the
  // narrow index, 0.5). Asking for url_lower, which only the narrow indexes hold beside the id, keeps
  // SQLite off the summary index.
  const ids = shape.search
    ? pageQuery(db, shape, p).select('id')
    : db.selectFrom(pageQuery(db, shape, p).select(['id', 'url_lower']).as('page')).select('page.id');
  return ordered(db.selectFrom('reports').where('id', 'in', ids), shape);
}

export async function countReports(db: DbExecutor, userId: number, filters: ReportFilters): Promise<number> {
  const [{ count }] = await readCount(db, filterShape(filters), filterParams(userId, filters));
  return count;
}

const readCount = preparedRead((db, shape: FilterShape, p: FilterParams) =>
  db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(matching(shape, p)),
);

/** Which filters apply (the SQL text differs with them); their values are FilterParams. */
interface FilterShape {
  search: boolean;
  project: boolean;
  result: boolean;
}

interface FilterParams {
  userId: number;
  /** the url search as a LIKE pattern */
  pattern?: string;
  project?: string;
  resultRank?: number;
}

/** From this offset on a page's ids are read before its rows (readListItems); below it that costs more than it saves. */
const DEEP_PAGE_OFFSET = 1_000;

type PageShape = FilterShape & Pick<ReportListOptions, 'sortBy' | 'sort'> & { deep: boolean };
type PageParams = FilterParams & Pick<ReportListOptions, 'limit' | 'offset'>;

function filterShape(filters: ReportFilters): FilterShape {
  return { search: Boolean(filters.search), project: filters.project !== undefined, result: filters.result !== undefined };
}

function filterParams(userId: number, filters: ReportFilters): FilterParams {
  return {
    userId,
    pattern: filters.search ? containsPattern(filters.search) : undefined,
    project: filters.project,
    resultRank: filters.result === undefined ? undefined : RESULT_RANK[filters.result],
  };
}

function pageShape(options: ReportListOptions): PageShape {
  return { ...filterShape(options), sortBy: options.sortBy, sort: options.sort, deep: options.offset >= DEEP_PAGE_OFFSET };
}

function pageParams(userId: number, options: ReportListOptions): PageParams {
  return { ...filterParams(userId, options), limit: options.limit, offset: options.offset };
}

function pageQuery(db: DbExecutor, shape: PageShape, p: PageParams) {
  return ordered(db.selectFrom('reports').where(matching(shape, p)), shape).limit(p.limit).offset(p.offset);
}

/** By the sort key, then id in the same direction, so pages never overlap. */
function ordered<Query extends SelectQueryBuilder<Database, 'reports', object>>(query: Query, shape: PageShape): Query {
  const sortColumn = SORT_COLUMN[shape.sortBy];
  const bySortKey = sortColumn === 'id' ? query : query.orderBy(sortColumn, shape.sort);
  return bySortKey.orderBy('id', shape.sort) as Query;
}

/** Returns how many rows changed: 0 when the report is not the user's. */
export async function updateReport(db: DbExecutor, userId: number, id: number, patch: ReportPatch): Promise<number> {
  const { results, ...columns } = patch;
  const derived = columns.result === undefined ? {} : { result_rank: RESULT_RANK[columns.result] };
  return inOneTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('reports')
      .set({ ...columns, ...derived })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (updated === undefined) return 0;
    // The stored summary is made from the whole row after the change, not from the patch alone.
    await trx.updateTable('reports').set({ summary_json: summaryJson(updated) }).where('id', '=', id).execute();
    if (results !== undefined) {
      await trx.updateTable('report_results').set({ results }).where('report_id', '=', id).execute();
    }
    await bumpReportsVersion(trx, [userId]);
    return 1;
  });
}

/** Deleting a report deletes its results too (the foreign key cascades). */
export async function deleteReport(db: DbExecutor, userId: number, id: number): Promise<number> {
  return inOneTransaction(db, async (trx) => {
    const result = await trx.deleteFrom('reports').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return deletedAndBumped(trx, userId, Number(result.numDeletedRows));
  });
}

export async function deleteReportsOfProject(db: DbExecutor, userId: number, project: string): Promise<number> {
  return inOneTransaction(db, async (trx) => {
    const result = await trx
      .deleteFrom('reports')
      .where('user_id', '=', userId)
      .where('project', '=', project)
      .executeTakeFirst();
    return deletedAndBumped(trx, userId, Number(result.numDeletedRows));
  });
}

async function deletedAndBumped(trx: DbExecutor, userId: number, deleted: number): Promise<number> {
  if (deleted > 0) await bumpReportsVersion(trx, [userId]);
  return deleted;
}

function derivedColumns(row: Omit<ReportInsert, 'results'>) {
  return { ...row, url_lower: row.url.toLowerCase(), result_rank: RESULT_RANK[row.result], summary_json: summaryJson(row) };
}

function joinResults(db: DbExecutor) {
  return db.selectFrom('reports').innerJoin('report_results', 'report_results.report_id', 'reports.id');
}

function withResults(db: DbExecutor) {
  return joinResults(db).selectAll('reports').select('report_results.results');
}

/** The owner predicate always comes first; the result filter goes through result_rank so one index
 * (user_id, result_rank, ...) serves both the filter and the sort by result. */
function matching(shape: FilterShape, p: FilterParams) {
  return (eb: ExpressionBuilder<Database, 'reports'>) => {
    const conditions: Expression<SqlBool>[] = [eb('user_id', '=', p.userId)];
    if (shape.project) conditions.push(eb('project', '=', p.project as string));
    if (shape.result) conditions.push(eb('result_rank', '=', p.resultRank as number));
    if (shape.search) conditions.push(lowerCaseColumnLike('url_lower', p.pattern as string));
    return eb.and(conditions);
  };
}
