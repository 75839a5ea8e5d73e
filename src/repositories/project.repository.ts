// Projects: one row per (account, host) holding the counts the API lists. The service keeps a row in
// step with the reports by calling adjustProjectCounts in the transaction that changes a report.
import { sql } from 'kysely';
import type { NewProject, ProjectRow } from '../db/tables/project.table.ts';
import { preparedRead } from '../db/prepared-reads.ts';
import { containsPattern, lowerCaseColumnLike, type SortDirection } from './contains-search.ts';
import { inOneTransaction, statementChunks, type DbExecutor } from './executor.ts';
import { bumpReportsVersion } from './reports-version.ts';
import { projectSummaryJson } from './project-summary-json.ts';
import { joinedItems, selectJoinedItems, type JoinedItems } from './joined-items-json.ts';
import type { JsonText } from './report.repository.ts';

/** What a caller supplies; name_lower and summary_json are derived here so they never drift. */
export type ProjectInsert = Omit<NewProject, 'id' | 'name_lower' | 'summary_json'>;

export interface ProjectCountsDelta {
  reports: number;
  good: number;
  decent: number;
  bad: number;
}

export type ProjectSortBy = 'created_at' | 'project';

export interface ProjectFilters {
  /** case-insensitive substring of the name; every character literal */
  search?: string;
}

export interface ProjectListOptions extends ProjectFilters {
  sortBy: ProjectSortBy;
  sort: SortDirection;
  limit: number;
  offset: number;
}

/**
 * Adds `delta` to the project's counts and stamps updated_at. A delta that adds reports creates the
 * project when it is missing (created_at = now); a row left with no reports is deleted. Returns the row
 * after the change, or undefined when it was deleted. A re-score is one call with `reports: 0` (e.g.
 * good -1, decent +1): a -1 then a +1 would delete and re-create a one-report project, losing created_at.
 */
export async function adjustProjectCounts(
  db: DbExecutor,
  userId: number,
  name: string,
  delta: ProjectCountsDelta,
  now: string,
): Promise<ProjectRow | undefined> {
  const row =
    delta.reports > 0
      ? await upsertCounts(db, userId, name, delta, now)
      : await updateCounts(db, userId, name, delta, now);
  await bumpReportsVersion(db, [userId]);
  if (row.reports_count === 0) {
    await db.deleteFrom('projects').where('id', '=', row.id).execute();
    return undefined;
  }
  // The stored list item is made from the row as the change left it.
  const summary_json = projectSummaryJson(row);
  await db.updateTable('projects').set({ summary_json }).where('id', '=', row.id).execute();
  return { ...row, summary_json };
}

// Insert-or-add in one statement, so two first reports on a host in parallel cannot both insert.
async function upsertCounts(db: DbExecutor, userId: number, name: string, delta: ProjectCountsDelta, now: string) {
  return db
    .insertInto('projects')
    .values({
      user_id: userId,
      name,
      name_lower: name.toLowerCase(),
      summary_json: '',
      reports_count: delta.reports,
      good_count: delta.good,
      decent_count: delta.decent,
      bad_count: delta.bad,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'name']).doUpdateSet((eb) => ({
        reports_count: eb('projects.reports_count', '+', delta.reports),
        good_count: eb('projects.good_count', '+', delta.good),
        decent_count: eb('projects.decent_count', '+', delta.decent),
        bad_count: eb('projects.bad_count', '+', delta.bad),
        updated_at: now,
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

// A delta that adds no reports (a re-score, a deletion) can only apply to an existing project; its
// proposed insert row would carry negative counts, which the table's check constraint rejects.
async function updateCounts(db: DbExecutor, userId: number, name: string, delta: ProjectCountsDelta, now: string) {
  const row = await db
    .updateTable('projects')
    .set((eb) => ({
      reports_count: eb('reports_count', '+', delta.reports),
      good_count: eb('good_count', '+', delta.good),
      decent_count: eb('decent_count', '+', delta.decent),
      bad_count: eb('bad_count', '+', delta.bad),
      updated_at: now,
    }))
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) throw new Error(`No project "${name}" of user ${userId} to adjust: counts are out of step.`);
  return row;
}

/**
 * Inserts projects whose counts the caller has already tallied from the reports it inserts, in
 * multi-row statements and one transaction: for seeding and imports. A name the account already
 * has is a unique-constraint error.
 */
export async function insertProjectsBulk(db: DbExecutor, projects: readonly ProjectInsert[]): Promise<void> {
  const rows = projects.map((project) => ({
    ...project,
    name_lower: project.name.toLowerCase(),
    summary_json: projectSummaryJson(project),
  }));
  await inOneTransaction(db, async (trx) => {
    for (const chunk of statementChunks(rows)) await trx.insertInto('projects').values(chunk).execute();
    await bumpReportsVersion(trx, [...new Set(rows.map((row) => row.user_id))]);
  });
}

/**
 * Finds the project and locks its row until the transaction ends (a no-op update: PostgreSQL takes a
 * row lock; SQLite already runs one write transaction at a time). Every transaction that changes a
 * project's reports takes this lock before reading them, so they run one after another per project.
 */
export async function lockProject(db: DbExecutor, userId: number, name: string): Promise<ProjectRow | undefined> {
  return db
    .updateTable('projects')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .returningAll()
    .executeTakeFirst();
}

export async function findProject(db: DbExecutor, userId: number, name: string): Promise<ProjectRow | undefined> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function listProjects(db: DbExecutor, userId: number, options: ProjectListOptions): Promise<ProjectRow[]> {
  return readListRows(db, pageShape(options), pageParams(userId, options));
}

const readListRows = preparedRead((db, shape: PageShape, p: PageParams) => pageQuery(db, shape, p).selectAll());

/** The same page as listProjects, each item as the API's JSON from its stored summary. */
export async function listProjectItems(db: DbExecutor, userId: number, options: ProjectListOptions): Promise<JsonText[]> {
  const rows = await readListItems(db, pageShape(options), pageParams(userId, options));
  return rows.map((row) => row.summary_json);
}

const readListItems = preparedRead((db, shape: PageShape, p: PageParams) => pageQuery(db, shape, p).select('summary_json'));

/** The same page as listProjectItems, its items joined into one JSON text (joined-items-json.ts). */
export async function listProjectItemsJoined(db: DbExecutor, userId: number, options: ProjectListOptions): Promise<JoinedItems> {
  return joinedItems(
    db,
    () => readJoinedItems(db, pageShape(options), pageParams(userId, options)),
    () => listProjectItems(db, userId, options),
  );
}

const readJoinedItems = preparedRead((db, shape: PageShape, p: PageParams) =>
  selectJoinedItems(db, pageQuery(db, shape, p).select('summary_json').as('page'), sql`page.summary_json`),
);

/** Which parts the SQL text has (the search, the sort); the values are PageParams. */
interface PageShape {
  search: boolean;
  sortBy: ProjectSortBy;
  sort: SortDirection;
}

interface PageParams {
  userId: number;
  /** the name search as a LIKE pattern */
  pattern?: string;
  limit: number;
  offset: number;
}

function pageShape(options: ProjectListOptions): PageShape {
  return { search: Boolean(options.search), sortBy: options.sortBy, sort: options.sort };
}

function pageParams(userId: number, options: ProjectListOptions): PageParams {
  return { ...filterParams(userId, options), limit: options.limit, offset: options.offset };
}

function filterParams(userId: number, filters: ProjectFilters) {
  return { userId, pattern: filters.search ? containsPattern(filters.search) : undefined };
}

function pageQuery(db: DbExecutor, shape: PageShape, p: PageParams) {
  let query = db.selectFrom('projects').where('user_id', '=', p.userId);
  if (shape.search) query = query.where(lowerCaseColumnLike('name_lower', p.pattern as string));
  // Names are unique per account, so sorting by name has no ties for id to break.
  query =
    shape.sortBy === 'project'
      ? query.orderBy('name', shape.sort)
      : query.orderBy('created_at', shape.sort).orderBy('id', shape.sort);
  return query.limit(p.limit).offset(p.offset);
}

export async function countProjects(db: DbExecutor, userId: number, filters: ProjectFilters): Promise<number> {
  const [{ count }] = await readCount(db, { search: Boolean(filters.search) }, filterParams(userId, filters));
  return count;
}

const readCount = preparedRead((db, shape: { search: boolean }, p: { userId: number; pattern?: string }) => {
  let query = db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', p.userId);
  if (shape.search) query = query.where(lowerCaseColumnLike('name_lower', p.pattern as string));
  return query;
});

/** Which of a project's counts to add up: all its reports, or those of one verdict. */
export type ProjectCount = 'reports' | 'good' | 'decent' | 'bad';

/**
 * The account's reports (in one project, when named) counted from the project rows rather than the
 * reports: the rows are kept exact in the transactions that change reports, and adding up at most
 * one row per host beats counting ten thousand index entries on every list request.
 */
export async function sumProjectCounts(db: DbExecutor, userId: number, count: ProjectCount, project?: string): Promise<number> {
  const [{ total }] = await readCountSum(db, { count, project: project !== undefined }, { userId, project });
  return Number(total);
}

const readCountSum = preparedRead((db, shape: { count: ProjectCount; project: boolean }, p: { userId: number; project?: string }) => {
  const column = `${shape.count}_count` as `${ProjectCount}_count`;
  let query = db
    .selectFrom('projects')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(column), eb.lit(0)).as('total'))
    .where('user_id', '=', p.userId);
  if (shape.project) query = query.where('name', '=', p.project as string);
  return query;
});

/** Deleting a project changes its account's counts: call it in the transaction that deletes its reports. */
export async function deleteProject(db: DbExecutor, userId: number, name: string): Promise<number> {
  const result = await db
    .deleteFrom('projects')
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
  await bumpReportsVersion(db, [userId]);
  return Number(result.numDeletedRows);
}
