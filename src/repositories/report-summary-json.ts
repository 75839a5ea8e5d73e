// A report's list item as the API sends it, kept as JSON text beside the row (`summary_json`) so a list
// page is read as one text per row and sent without parsing and serialising every field again. The
// repository derives it on every write (like url_lower), so it never drifts from the columns. It leaves
// out the id, which is only known after the insert: itemJson() puts it back in front.

/** The columns a list item is made of. */
export interface SummaryColumns {
  url: string;
  project: string;
  privacy: number;
  /** absent on an insert that sets no password */
  password_hash?: string | null;
  result: string;
  score: number;
  issues_high: number;
  issues_medium: number;
  issues_low: number;
  /** JSON text of PageFacts */
  page: string;
  generated_at: string;
  created_at: string;
  updated_at: string;
}

/** Keys in the order of the API's ReportSummary schema, as the serialiser would write them. */
export function summaryJson(row: SummaryColumns): string {
  return JSON.stringify({
    url: row.url,
    project: row.project,
    privacy: row.privacy,
    password: row.password_hash !== null && row.password_hash !== undefined,
    result: row.result,
    score: row.score,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    page: JSON.parse(row.page),
    generated_at: row.generated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
}

/** The whole list item: `{"id":<id>,` followed by the stored summary's fields. */
export function itemJson(id: number, summary: string): string {
  return `{"id":${id},${summary.slice(1)}`;
}

/** A report with its results: the list item with `results` (JSON text of the results map) added last. */
export function reportJson(id: number, summary: string, results: string): string {
  return `{"id":${id},${summary.slice(1, -1)},"results":${results}}`;
}
