// A report's list item as the API sends it, kept as JSON text beside the row (`summary_json`) so a list
// page is read as one text per row and sent without parsing and serialising every field again. The
// repository derives it on every write (like url_lower), so it never drifts from the columns. It leaves
// out the id, which is only known after the insert: itemJson() puts it back in front.
import type { ReportsTable } from '../db/tables/report.table.ts';

/** The columns a list item is made of (password_hash is absent on an insert that sets none). */
export type SummaryColumns = Pick<
  ReportsTable,
  'url' | 'project' | 'privacy' | 'result' | 'score' | 'issues_high' | 'issues_medium' | 'issues_low' | 'page' | 'generated_at' | 'created_at' | 'updated_at'
> & { password_hash?: string | null };

/**
 * The list item's fields but the id, keys in the order of the API's ReportSummary schema: the one
 * mapping from columns to the API's shape, for the stored text and for the views built in memory.
 * `page` is the parsed page facts when the caller has them already.
 */
export function summaryFields(row: SummaryColumns, page: unknown = JSON.parse(row.page)) {
  return {
    url: row.url,
    project: row.project,
    privacy: row.privacy,
    password: row.password_hash !== null && row.password_hash !== undefined,
    result: row.result,
    score: row.score,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    page,
    generated_at: row.generated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function summaryJson(row: SummaryColumns): string {
  return JSON.stringify(summaryFields(row));
}

/** The whole list item: `{"id":<id>,` followed by the stored summary's fields. */
export function itemJson(id: number, summary: string): string {
  return `{"id":${id},${summary.slice(1)}`;
}

/** A report with its results: the list item with `results` (JSON text of the results map) added last. */
export function reportJson(id: number, summary: string, results: string): string {
  return `{"id":${id},${summary.slice(1, -1)},"results":${results}}`;
}
