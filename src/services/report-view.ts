// Maps stored report rows to the API's report objects.
import type { Report, ReportSummary, Privacy, ReportState } from './types.ts';
import type { Analysis, PageFacts, CheckResult, Verdict } from '../analysis/types.ts';
import { unpackResults } from '../analysis/packed-results.ts';
import type { ReportListRow } from '../repositories/report.repository.ts';
import type { Rendered } from '../render/compare-rendered.ts';
import type { Lab } from '../lab/lab-types.ts';
import type { StructuredDataReport } from '../structured/structured-types.ts';

/** The columns a report view needs: a list row's. */
type ReportRowView = Omit<ReportListRow, 'url_lower' | 'result_rank' | 'last_run_number'>;

export function toReportSummary(row: ReportRowView): ReportSummary {
  return summaryOf(row, row.page === null ? null : (JSON.parse(row.page) as PageFacts));
}

export function toReport(
  row: ReportRowView & { results: string | null; rendered?: string | null; lab?: string | null; structured_data?: string | null },
): Report {
  const results = row.results === null ? null : unpackResults(row.results);
  return withResults(toReportSummary(row), results, {
    rendered: row.rendered ? (JSON.parse(row.rendered) as Rendered) : null,
    lab: row.lab ? (JSON.parse(row.lab) as Lab) : null,
    structured_data: row.structured_data ? (JSON.parse(row.structured_data) as StructuredDataReport) : null,
  });
}

/** A report just stored from `analysis`: built from the analysis in memory, not read back and parsed. */
export function toAnalyzedReport(row: ReportRowView, analysis: Analysis): Report {
  return withResults(summaryOf(row, analysis.page), analysis.results, {
    rendered: analysis.rendered ?? null,
    lab: analysis.lab ?? null,
    structured_data: analysis.structuredData ?? null,
  });
}

function summaryOf(row: ReportRowView, page: PageFacts | null): ReportSummary {
  const ran = row.result !== null;
  return {
    id: row.id,
    url: row.url,
    project: row.project,
    organization: row.organization_id,
    // The columns hold only valid privacy and verdict values (check constraints).
    privacy: row.privacy as Privacy,
    password: row.password_hash !== null,
    result: row.result as Verdict | null,
    score: row.score,
    // A run's columns are null together (a check constraint): issues are whole or absent.
    issues: ran ? { high: row.issues_high!, medium: row.issues_medium!, low: row.issues_low! } : null,
    page,
    state: row.state as ReportState,
    last_error: row.last_error === null ? null : { message: row.last_error },
    runs_count: row.runs_count,
    schedule: row.schedule,
    next_run_at: row.next_run_at,
    generated_at: row.generated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * What the latest run saw beside its checks: the rendering (render=1), the lab audit (lab=1) and the
 * structured data (docs/structured-data.md), each null when it had none.
 */
interface RunViews {
  rendered: Rendered | null;
  lab: Lab | null;
  structured_data: StructuredDataReport | null;
}

function withResults(summary: ReportSummary, results: Record<string, CheckResult> | null, views: RunViews): Report {
  const { generated_at, created_at, updated_at, ...rest } = summary;
  return { ...rest, results, ...views, generated_at, created_at, updated_at };
}
