// Maps stored project rows to the API's project objects.
import type { ProjectRow } from '../db/tables/project.table.ts';
import type { Project } from './types.ts';

export function toProject(row: ProjectRow): Project {
  return {
    project: row.name,
    reports_count: row.reports_count,
    result_counts: { good: row.good_count, decent: row.decent_count, bad: row.bad_count },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
