// Projects: one row per (account, host) holding the counts the API lists. The service keeps a row in
// step with the reports by calling adjustProjectCounts in the transaction that changes a report.
import type { ProjectRow } from '../db/tables/project.table.ts';
import { lowerCaseColumnContains, type SortDirection } from './contains-search.ts';
import type { DbExecutor } from './executor.ts';

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
  if (row.reports_count > 0) return row;
  await db.deleteFrom('projects').where('id', '=', row.id).execute();
  return undefined;
}

// Insert-or-add in one statement, so two first reports on a host in parallel cannot both insert.
async function upsertCounts(db: DbExecutor, userId: number, name: string, delta: ProjectCountsDelta, now: string) {
  return db
    .insertInto('projects')
    .values({
      user_id: userId,
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

export async function findProject(db: DbExecutor, userId: number, name: string): Promise<ProjectRow | undefined> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function listProjects(db: DbExecutor, userId: number, options: ProjectListOptions): Promise<ProjectRow[]> {
  let query = db.selectFrom('projects').selectAll().where('user_id', '=', userId);
  if (options.search) query = query.where(lowerCaseColumnContains('name_lower', options.search));
  // Names are unique per account, so sorting by name has no ties for id to break.
  query =
    options.sortBy === 'project'
      ? query.orderBy('name', options.sort)
      : query.orderBy('created_at', options.sort).orderBy('id', options.sort);
  return query.limit(options.limit).offset(options.offset).execute();
}

export async function countProjects(db: DbExecutor, userId: number, filters: ProjectFilters): Promise<number> {
  let query = db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId);
  if (filters.search) query = query.where(lowerCaseColumnContains('name_lower', filters.search));
  const { count } = await query.executeTakeFirstOrThrow();
  return count;
}

export async function deleteProject(db: DbExecutor, userId: number, name: string): Promise<number> {
  const result = await db
    .deleteFrom('projects')
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
