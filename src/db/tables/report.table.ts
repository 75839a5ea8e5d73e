import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type ReportResult = 'good' | 'decent' | 'bad';

export interface ReportsTable {
  id: Generated<number>;
  user_id: number;
  /** normalised URL; code-point collation on both dialects */
  url: string;
  /** lower-case url, for case-insensitive substring search */
  url_lower: string;
  /** the url's host (with :port when not the default) */
  project: string;
  /** 0 public, 1 private, 2 password */
  privacy: number;
  password_hash: string | null;
  result: ReportResult;
  /** 0 bad, 1 decent, 2 good: sorting by result sorts by this */
  result_rank: number;
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

/**
 * A report's check results, kept apart from its row: lists never read them, and in SQLite a row
 * holding them is about 12 KB that every list read would have to step over.
 */
export interface ReportResultsTable {
  report_id: number;
  /** JSON text of Record<checkId, CheckResult> */
  results: string;
}

/** A whole report: its row and its results. */
export type ReportRow = Selectable<ReportsTable> & { results: string };
export type NewReport = Insertable<ReportsTable> & { results: string };
