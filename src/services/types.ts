// What services hand to adapters (API, web pages, CLI): domain objects in the API's shape.
import type { CheckResult, IssueCounts, PageFacts, Verdict } from '../analysis/types.ts';

export type Privacy = 0 | 1 | 2;

export interface ReportSummary {
  id: number;
  url: string;
  project: string;
  privacy: Privacy;
  password: boolean;
  result: Verdict;
  score: number;
  issues: IssueCounts;
  page: PageFacts;
  generated_at: string;
  created_at: string;
  updated_at: string;
}

export interface Report extends ReportSummary {
  results: Record<string, CheckResult>;
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
}
