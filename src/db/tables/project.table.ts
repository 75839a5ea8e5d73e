import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** One row per (account, host) while the account has at least one report on that host. */
export interface ProjectsTable {
  id: Generated<number>;
  organization_id: number;
  /** the host; code-point collation on both dialects */
  name: string;
  /** lower-case name, for case-insensitive substring search */
  name_lower: string;
  reports_count: number;
  good_count: number;
  decent_count: number;
  bad_count: number;
  created_at: string;
  updated_at: string;
}

export type ProjectRow = Selectable<ProjectsTable>;
export type NewProject = Insertable<ProjectsTable>;
