// Maps stored report rows to the API's report objects.
import type { Report, ReportSummary, Privacy } from './types.ts';
import type { Analysis, PageFacts, CheckResult, Verdict } from '../analysis/types.ts';
import type { ReportListRow } from '../repositories/report.repository.ts';

/** The columns a report view needs: a list row's. */
type ReportRowView = Omit<ReportListRow, 'user_id' | 'url_lower' | 'result_rank'>;

export function toReportSummary(row: ReportRowView): ReportSummary {
  return summaryOf(row, JSON.parse(row.page) as PageFacts);
}

export function toReport(row: ReportRowView & { results: string }): Report {
  return withResults(toReportSummary(row), JSON.parse(row.results) as Record<string, CheckResult>);
}

/** A report just stored from `analysis`: built from the analysis in memory, not read back and parsed. */
export function toAnalysedReport(row: ReportRowView, analysis: Analysis): Report {
  return withResults(summaryOf(row, analysis.page), analysis.results);
}

function summaryOf(row: ReportRowView, page: PageFacts): ReportSummary {
  return {
    id: row.id,
    url: row.url,
    project: row.project,
    // The columns hold only valid privacy and verdict values (check constraints).
    privacy: row.privacy as Privacy,
    password: row.password_hash !== null,
    result: row.result as Verdict,
    score: row.score,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    page,
    generated_at: row.generated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function withResults(summary: ReportSummary, results: Record<string, CheckResult>): Report {
  const { generated_at, created_at, updated_at, ...rest } = summary;
  return { ...rest, results, generated_at, created_at, updated_at };
}
