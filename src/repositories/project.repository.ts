// Projects: one row per (account, host) holding the counts the API lists. The service keeps a row in
// step with the reports by calling adjustProjectCounts in the transaction that changes a report.
import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import type { NewProject, ProjectRow } from '../db/tables/project.table.ts';
import { containsPattern, lowerCaseColumnLike, type SortDirection } from './contains-search.ts';
import { inOneTransaction, statementChunks, type DbExecutor } from './executor.ts';

/** What a caller supplies; name_lower is derived here so it never drifts. */
export type ProjectInsert = Omit<NewProject, 'id' | 'name_lower'>;

export interface ProjectCountsDelta {
  reports: number;
  good: number;
  decent: number;
  bad: number;
}

type ProjectSortBy = 'created_at' | 'project';

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
  organizationId: number,
  name: string,
  delta: ProjectCountsDelta,
  now: string,
): Promise<ProjectRow | undefined> {
  const row =
    delta.reports > 0
      ? await upsertCounts(db, organizationId, name, delta, now)
      : await updateCounts(db, organizationId, name, delta, now);
  if (row.reports_count === 0) {
    await db.deleteFrom('projects').where('id', '=', row.id).execute();
    return undefined;
  }
  return row;
}

// Insert-or-add in one statement, so two first reports on a host in parallel cannot both insert.
async function upsertCounts(db: DbExecutor, organizationId: number, name: string, delta: ProjectCountsDelta, now: string) {
  return db
    .insertInto('projects')
    .values({
      organization_id: organizationId,
      name,
      name_lower: name.toLowerCase(),
      reports_count: delta.reports,
      good_count: delta.good,
      decent_count: delta.decent,
      bad_count: delta.bad,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(['organization_id', 'name']).doUpdateSet((eb) => ({
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
async function updateCounts(db: DbExecutor, organizationId: number, name: string, delta: ProjectCountsDelta, now: string) {
  const row = await db
    .updateTable('projects')
    .set((eb) => ({
      reports_count: eb('reports_count', '+', delta.reports),
      good_count: eb('good_count', '+', delta.good),
      decent_count: eb('decent_count', '+', delta.decent),
      bad_count: eb('bad_count', '+', delta.bad),
      updated_at: now,
    }))
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) throw new Error(`No project "${name}" of user ${organizationId} to adjust: counts are out of step.`);
  return row;
}

/**
 * Inserts projects whose counts the caller has already tallied from the reports it inserts, in
 * multi-row statements and one transaction: for seeding and imports. A name the account already
 * has is a unique-constraint error.
 */
export async function insertProjectsBulk(db: DbExecutor, projects: readonly ProjectInsert[]): Promise<void> {
  const rows = projects.map((project) => ({ ...project, name_lower: project.name.toLowerCase() }));
  await inOneTransaction(db, async (trx) => {
    for (const chunk of statementChunks(rows)) await trx.insertInto('projects').values(chunk).execute();
  });
}

/**
 * Finds the project and locks its row until the transaction ends (a no-op update: PostgreSQL takes a
 * row lock; SQLite already runs one write transaction at a time). Every transaction that changes a
 * project's reports takes this lock before reading them, so they run one after another per project.
 */
export async function lockProject(db: DbExecutor, organizationId: number, name: string): Promise<ProjectRow | undefined> {
  return db
    .updateTable('projects')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .returningAll()
    .executeTakeFirst();
}

export async function findProject(db: DbExecutor, organizationId: number, name: string): Promise<ProjectRow | undefined> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function listProjects(db: DbExecutor, organizationId: number, options: ProjectListOptions): Promise<ProjectRow[]> {
  return ordered(matching(db, organizationId, options).selectAll(), options).limit(options.limit).offset(options.offset).execute();
}

/** A project list read whole, in batches (an export): a page's options, each batch seeking past a row, not to an offset. */
type ProjectBatchOptions = Omit<ProjectListOptions, 'offset'>;

/**
 * The next `limit` projects of the list after `after` (the previous batch's last row; none: from the
 * start), in the list's order: each batch seeks past `after` in the sort's index.
 */
export async function listProjectsAfter(db: DbExecutor, organizationId: number, options: ProjectBatchOptions, after?: ProjectRow): Promise<ProjectRow[]> {
  let query = matching(db, organizationId, options).selectAll();
  if (after !== undefined) {
    const later = options.sort === 'asc' ? '>' : '<';
    query =
      options.sortBy === 'project'
        ? query.where('name', later, after.name)
        : query.where((eb) => eb(eb.refTuple('created_at', 'id'), later, eb.tuple(after.created_at, after.id)));
  }
  return ordered(query, options).limit(options.limit).execute();
}

/** Names are unique per account, so sorting by name has no ties for id to break. */
function ordered<Query extends SelectQueryBuilder<Database, 'projects', object>>(
  query: Query,
  options: Pick<ProjectListOptions, 'sortBy' | 'sort'>,
): Query {
  if (options.sortBy === 'project') return query.orderBy('name', options.sort) as Query;
  return query.orderBy('created_at', options.sort).orderBy('id', options.sort) as Query;
}

export async function countProjects(db: DbExecutor, organizationId: number, filters: ProjectFilters): Promise<number> {
  const { count } = await matching(db, organizationId, filters)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return count;
}

function matching(db: DbExecutor, organizationId: number, filters: ProjectFilters) {
  const query = db.selectFrom('projects').where('organization_id', '=', organizationId);
  return filters.search ? query.where(lowerCaseColumnLike('name_lower', containsPattern(filters.search))) : query;
}

/** Which of a project's counts to add up: all its reports, or those of one verdict. */
export type ProjectCount = 'reports' | 'good' | 'decent' | 'bad';

/**
 * The account's reports (in one project, when named) counted from the project rows rather than the
 * reports: the rows are kept exact in the transactions that change reports, and adding up at most
 * one row per host beats counting ten thousand index entries on every list request.
 */
export async function sumProjectCounts(db: DbExecutor, organizationId: number, count: ProjectCount, project?: string): Promise<number> {
  const column = `${count}_count` as const;
  let query = db
    .selectFrom('projects')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(column), eb.lit(0)).as('total'))
    .where('organization_id', '=', organizationId);
  if (project !== undefined) query = query.where('name', '=', project);
  const { total } = await query.executeTakeFirstOrThrow();
  return Number(total);
}

/** Call it in the transaction that deletes the project's reports. */
export async function deleteProject(db: DbExecutor, organizationId: number, name: string): Promise<number> {
  const result = await db.deleteFrom('projects').where('organization_id', '=', organizationId).where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows);
}
