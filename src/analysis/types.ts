// The product of one analysis: what a report stores and the API shows.
import type { Category, CheckErrors, Importance } from '../checks/check.ts';

export type Verdict = 'good' | 'decent' | 'bad';

export interface CheckResult {
  passed: boolean | null;
  importance: Importance;
  category: Category;
  value: unknown;
  errors: CheckErrors | null;
  /** only when passed is null */
  reason?: string;
}

export interface IssueCounts {
  high: number;
  medium: number;
  low: number;
}

/** Facts of the fetch that produced the results, in the API's shape (snake_case). */
export interface PageFacts {
  final_url: string;
  status_code: number;
  redirects: { url: string; status_code: number }[];
  content_type: string | null;
  charset: string;
  http_version: string;
  bytes: number;
  load_time_ms: number;
}

export interface Analysis {
  /** The normalised URL that was analysed. */
  url: string;
  page: PageFacts;
  results: Record<string, CheckResult>;
  score: number;
  result: Verdict;
  issues: IssueCounts;
  generatedAt: Date;
}
