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
  /** JSON text of Record<checkId, CheckResult> */
  results: string;
  generated_at: string;
  created_at: string;
  updated_at: string;
}

export type ReportRow = Selectable<ReportsTable>;
export type NewReport = Insertable<ReportsTable>;
export type ReportUpdate = Updateable<ReportsTable>;
