// The product of one analysis: what a report stores and the API shows.
import type { Category, CheckErrors, Importance } from '../checks/check.ts';
import type { Rendered } from '../render/compare-rendered.ts';

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
  /** Only for a crawl's pages: what its site checks need. */
  crawlFacts?: PageCrawlFacts;
  /** Only when rendering was asked for (render=1): what JavaScript changed, or why it could not be seen. */
  rendered?: Rendered;
}

/** The compact facts of an analysed page that a crawl keeps for its site checks (crawl-facts.ts). */
export interface PageCrawlFacts {
  title: string | null;
  description: string | null;
  /** absolute, without fragment */
  canonical: string | null;
  noindex: boolean;
  /** null when the page has no visible text */
  textHash: string | null;
  hreflang: { lang: string; url: string }[];
  /** links to pages on the page's own host, absolute, without fragment, each once */
  links: string[];
  /** those of `links` that some rel=nofollow link points at */
  nofollow: string[];
}
