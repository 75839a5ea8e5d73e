// A project's list item as the API sends it, kept as JSON text beside the row (`summary_json`), for the
// same reason as a report's (report-summary-json.ts): a page of projects is read as one text per row.
// The repository remakes it in every statement that changes the row.
import type { ProjectsTable } from '../db/tables/project.table.ts';
import type { Project } from '../services/types.ts';

export type ProjectSummaryColumns = Pick<
  ProjectsTable,
  'name' | 'reports_count' | 'good_count' | 'decent_count' | 'bad_count' | 'created_at' | 'updated_at'
>;

/** The one mapping from a project row to the API's shape, keys in the order of its Project schema. */
export function toProject(row: ProjectSummaryColumns): Project {
  return {
    project: row.name,
    reports_count: row.reports_count,
    result_counts: { good: row.good_count, decent: row.decent_count, bad: row.bad_count },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function projectSummaryJson(row: ProjectSummaryColumns): string {
  return JSON.stringify(toProject(row));
}
