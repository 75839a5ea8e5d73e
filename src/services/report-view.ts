// Maps stored report rows to the API's report objects.
import type { Report, ReportSummary, Privacy } from './types.ts';
import type { Analysis, PageFacts, CheckResult, Verdict } from '../analysis/types.ts';
import { summaryFields, type SummaryColumns } from '../repositories/report-summary-json.ts';

/** The columns a report view needs: a list item's, with the id (list rows carry all but `results`). */
export interface ReportRowView extends SummaryColumns {
  id: number;
  password_hash: string | null;
}

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
  // The columns hold only valid privacy and verdict values (check constraints).
  const fields = summaryFields(row, page);
  return { id: row.id, ...fields, page, privacy: fields.privacy as Privacy, result: fields.result as Verdict };
}

function withResults(summary: ReportSummary, results: Record<string, CheckResult>): Report {
  const { generated_at, created_at, updated_at, ...rest } = summary;
  return { ...rest, results, generated_at, created_at, updated_at };
}
