// The columns of the report and project exports (format=csv on GET /api/v1/reports and /projects, and
// the dashboard's Download CSV): a list item's scalar fields, named as in the JSON, a nested object's
// fields joined with `_` (issues.high -> issues_high, page.status_code -> page_status_code). A report
// without a run has empty run cells (result, score, issues, page, generated_at), as null in the JSON.
import type { Project, ReportSummary } from '../services/types.ts';
import type { CsvColumn } from './csv.ts';

export const REPORT_CSV_COLUMNS: readonly CsvColumn<ReportSummary>[] = [
  { header: 'id', cell: (report) => report.id },
  { header: 'url', cell: (report) => report.url },
  { header: 'project', cell: (report) => report.project },
  { header: 'privacy', cell: (report) => report.privacy },
  { header: 'password', cell: (report) => report.password },
  { header: 'state', cell: (report) => report.state },
  { header: 'result', cell: (report) => report.result },
  { header: 'score', cell: (report) => report.score },
  { header: 'issues_high', cell: (report) => report.issues?.high },
  { header: 'issues_medium', cell: (report) => report.issues?.medium },
  { header: 'issues_low', cell: (report) => report.issues?.low },
  { header: 'page_status_code', cell: (report) => report.page?.status_code },
  { header: 'page_final_url', cell: (report) => report.page?.final_url },
  { header: 'page_redirects_count', cell: (report) => report.page?.redirects?.length },
  { header: 'page_load_time_ms', cell: (report) => report.page?.load_time_ms },
  { header: 'page_bytes', cell: (report) => report.page?.bytes },
  { header: 'last_error_message', cell: (report) => report.last_error?.message },
  { header: 'runs_count', cell: (report) => report.runs_count },
  { header: 'schedule', cell: (report) => report.schedule },
  { header: 'next_run_at', cell: (report) => report.next_run_at },
  { header: 'generated_at', cell: (report) => report.generated_at },
  { header: 'created_at', cell: (report) => report.created_at },
  { header: 'updated_at', cell: (report) => report.updated_at },
];

export const PROJECT_CSV_COLUMNS: readonly CsvColumn<Project>[] = [
  { header: 'project', cell: (project) => project.project },
  { header: 'reports_count', cell: (project) => project.reports_count },
  { header: 'result_counts_good', cell: (project) => project.result_counts.good },
  { header: 'result_counts_decent', cell: (project) => project.result_counts.decent },
  { header: 'result_counts_bad', cell: (project) => project.result_counts.bad },
  { header: 'created_at', cell: (project) => project.created_at },
  { header: 'updated_at', cell: (project) => project.updated_at },
];
