import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type ReportResult = 'good' | 'decent' | 'bad';
/** result_rank's values: sorting by result sorts bad < decent < good. */
export const RESULT_RANK: Record<ReportResult, number> = { bad: 0, decent: 1, good: 2 };

/** The latest analysis asked for: waiting for a worker, under way, succeeded, or failed. */
export const REPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

export interface ReportsTable {
  id: Generated<number>;
  organization_id: number;
  /** normalised URL; code-point collation on both dialects */
  url: string;
  /** lower-case url, for case-insensitive substring search */
  url_lower: string;
  /** the url's host (with :port when not the default) */
  project: string;
  /** 0 public, 1 private, 2 password */
  privacy: number;
  password_hash: string | null;
  // result, score, issues_*, page and generated_at describe the latest run that succeeded; all are
  // null together while a report has had none (created with async=1).
  result: ReportResult | null;
  /** -1 no run yet, 0 bad, 1 decent, 2 good: sorting by result sorts by this */
  result_rank: number;
  score: number | null;
  issues_high: number | null;
  issues_medium: number | null;
  issues_low: number | null;
  /** JSON text of PageFacts */
  page: string | null;
  generated_at: string | null;
  created_at: string;
  updated_at: string;
  state: Generated<ReportState>;
  /** why the latest analysis failed, when it did */
  last_error: string | null;
  /** runs kept (report_runs) */
  runs_count: Generated<number>;
  /** the number of the latest run, whose summary the columns above repeat; 0 before the first */
  last_run_number: Generated<number>;
  /** off | daily | weekly | monthly | a 5-field cron expression (UTC) */
  schedule: Generated<string>;
  /** when the schedule runs next (ISO-8601 UTC); null when off */
  next_run_at: string | null;
  // The queue job of the analysis under way (docs/production.md, "When the queue loses jobs"): its id
  // is made from job_generation, one up for each analysis asked for and each time it was queued again.
  /** 0: queued before generations existed, or never queued */
  job_generation: Generated<number>;
  /** which attempt the analysis under way is: 1, and one more each time its lost job was queued again */
  job_attempt: Generated<number>;
  /** the trigger its run will record (RunTrigger) */
  job_trigger: string | null;
  /** 1: render=1 */
  job_render: Generated<number>;
  /** the profile of the lab audit it makes (lab=1), mobile | desktop; null: none */
  job_lab: string | null;
}

/** The queue's bookkeeping, which no view of a report reads (repositories/job-generation.repository.ts does). */
type JobColumns = 'job_generation' | 'job_attempt' | 'job_trigger' | 'job_render' | 'job_lab';

/** A whole report: its row and its latest run's results, rendering and lab audit (null before its first run, or when it had none). */
export type ReportRow = Omit<Selectable<ReportsTable>, JobColumns> & { results: string | null; rendered: string | null; lab: string | null; structured_data: string | null };
export type NewReport = Insertable<ReportsTable> & { results: string | null; rendered?: string | null; lab?: string | null; lab_profile?: string | null; structured_data?: string | null };
