// A project's list item as the API sends it, kept as JSON text beside the row (`summary_json`), for the
// same reason as a report's (report-summary-json.ts): a page of projects is read as one text per row.
// The repository remakes it in every statement that changes the row.

export interface ProjectSummaryColumns {
  name: string;
  reports_count: number;
  good_count: number;
  decent_count: number;
  bad_count: number;
  created_at: string;
  updated_at: string;
}

/** Keys in the order of the API's Project schema. */
export function projectSummaryJson(row: ProjectSummaryColumns): string {
  return JSON.stringify({
    project: row.name,
    reports_count: row.reports_count,
    result_counts: { good: row.good_count, decent: row.decent_count, bad: row.bad_count },
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
}
