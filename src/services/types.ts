// What services hand to adapters (API, web pages, CLI): domain objects in the API's shape.
import type { CheckResult, IssueCounts, PageFacts, Verdict } from '../analysis/types.ts';
import type { JoinedItems } from '../repositories/joined-items-json.ts';

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

/** A page of a list: its items, in whatever form the reader wants them, and where it lies in the whole list. */
export interface PageOf<Items> {
  items: Items;
  total: number;
  page: number;
  perPage: number;
}

export type Page<T> = PageOf<T[]>;

/** A page whose items are already one JSON text (the items joined by commas), for answering as it is. */
export type JsonPage = PageOf<JoinedItems>;

export interface Account {
  id: number;
  email: string;
  is_admin: boolean;
  created_at: string;
}
