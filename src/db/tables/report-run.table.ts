import type { Generated, Selectable } from 'kysely';
import type { ReportResult } from './report.table.ts';

/** How a run came about. */
export type RunTrigger = 'create' | 'regenerate' | 'schedule' | 'crawl';

/** One successful analysis of a report, kept with its results (the newest PAGEGRADE_RUNS_KEPT of them). */
export interface ReportRunsTable {
  /** unique across all runs */
  id: Generated<number>;
  report_id: number;
  /** the report's runs counted from 1; never reused */
  number: number;
  trigger: RunTrigger;
  result: ReportResult;
  score: number;
  issues_high: number;
  issues_medium: number;
  issues_low: number;
  /** JSON text of PageFacts */
  page: string;
  /** JSON text of Record<checkId, CheckResult> */
  results: string;
  /** JSON text of what JavaScript changed (render=1), or of why the page could not be rendered; null when not asked */
  rendered: string | null;
  /** JSON text of the report's `lab` (Lab, docs/lab.md); null without a lab audit, or when it could not observe the page */
  lab: string | null;
  /** JSON text of the report's `structured_data` (docs/structured-data.md); null when the page had none, and for runs before it */
  structured_data: string | null;
  /** the profile a lab audit was asked under, mobile | desktop, also when it failed (a scheduled run repeats it); null: none */
  lab_profile: string | null;
  generated_at: string;
}

export type ReportRunRow = Selectable<ReportRunsTable>;

