// What services hand to adapters (API, web pages, CLI): domain objects in the API's shape.
import type { CheckResult, IssueCounts, PageFacts, Verdict } from '../analysis/types.ts';
import type { ReportState } from '../db/tables/report.table.ts';
import type { RunTrigger } from '../db/tables/report-run.table.ts';
import type { Rendered } from '../render/compare-rendered.ts';
import type { Lab } from '../lab/lab-types.ts';
import type { StructuredDataReport } from '../structured/structured-types.ts';

export type Privacy = 0 | 1 | 2;

export type { ReportState } from '../db/tables/report.table.ts';

/**
 * result, score, issues, page, generated_at (and results) describe the latest run that succeeded;
 * they are null while a report created with async=1 has had none.
 */
export interface ReportSummary {
  id: number;
  url: string;
  project: string;
  /** the organisation that owns it */
  organization: number;
  privacy: Privacy;
  password: boolean;
  result: Verdict | null;
  score: number | null;
  issues: IssueCounts | null;
  page: PageFacts | null;
  state: ReportState;
  last_error: { message: string } | null;
  /** runs kept for this report */
  runs_count: number;
  /** off | daily | weekly | monthly | a 5-field cron expression (UTC) */
  schedule: string;
  /** when the schedule runs next; null when off */
  next_run_at: string | null;
  generated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Report extends ReportSummary {
  results: Record<string, CheckResult> | null;
  /**
   * The latest run's raw-against-rendered comparison (render=1), or why it failed; null when not
   * rendered. Services always set it; a report made elsewhere (the CLI's from an analysis) may not.
   */
  rendered?: Rendered | null;
  /** The latest run's lab audit (lab=1, docs/lab.md); null when none ran or it could not observe the page. */
  lab?: Lab | null;
  /** The latest run's structured data (docs/structured-data.md); null when the page had none or before the first run. */
  structured_data?: StructuredDataReport | null;
}

export interface Project {
  project: string;
  reports_count: number;
  result_counts: { good: number; decent: number; bad: number };
  created_at: string;
  updated_at: string;
}

/** A page of a list: its items and where it lies in the whole list. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

export interface Account {
  id: number;
  email: string;
  is_admin: boolean;
  created_at: string;
  /** the account's personal organisation (docs/organisations.md) */
  organization_id: number;
}

/** One successful analysis of a report, as listed. */
export interface RunSummary {
  id: number;
  number: number;
  score: number;
  result: Verdict;
  issues: IssueCounts;
  trigger: RunTrigger;
  generated_at: string;
}

/** A run with what it measured. */
export interface Run extends RunSummary {
  page: PageFacts;
  results: Record<string, CheckResult>;
  rendered: Rendered | null;
  /** The run's lab audit (docs/lab.md); null when none ran or it could not observe the page. */
  lab: Lab | null;
  /** The run's structured data (docs/structured-data.md); null when the page had none, and for runs made before it was judged. */
  structured_data: StructuredDataReport | null;
}
