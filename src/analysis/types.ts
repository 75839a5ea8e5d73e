// The product of one analysis: what a report stores and the API shows.
import type { Category, CheckErrors, Importance } from '../checks/check.ts';
import type { Rendered } from '../render/compare-rendered.ts';
import type { Lab, LabProfileName } from '../lab/lab-types.ts';
import type { StructuredDataReport } from '../structured/structured-types.ts';

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
  /** `results` as runs store them (packed-results.ts), made where the analysis ran; absent: pack them when stored. */
  packedResults?: string;
  score: number;
  result: Verdict;
  issues: IssueCounts;
  generatedAt: Date;
  /** Only for a crawl's pages: what its site checks need. */
  crawlFacts?: PageCrawlFacts;
  /** Only when rendering was asked for (render=1): what JavaScript changed, or why it could not be seen. */
  rendered?: Rendered;
  /** Only when a lab audit was asked for (lab=1, docs/lab.md): what it measured; null when it could not observe the page. */
  lab?: Lab | null;
  /** Only when a lab audit was asked for: its profile, also when it failed (a scheduled run makes one under it again). */
  labProfile?: LabProfileName;
  /** The report's `structured_data` (docs/structured-data.md): null when the page has none. */
  structuredData?: StructuredDataReport | null;
}

/** The compact facts of an analysed page that a crawl keeps for its site checks (crawl-facts.ts). */
export interface PageCrawlFacts {
  title: string | null;
  description: string | null;
  /** absolute, without fragment */
  canonical: string | null;
  /** the canonical is a URL of the crawled host that robots.txt disallows */
  canonicalBlocked: boolean;
  noindex: boolean;
  /** null when the page has no visible text */
  textHash: string | null;
  hreflang: { lang: string; url: string }[];
  /**
   * The recorded links on the crawled host: of the page's first `maxLinks` distinct `<a href>` targets
   * (internal and external together, in document order), those on the host, normalised as the crawl
   * keys URLs (crawlUrl), robots.txt-allowed, each once.
   */
  links: string[];
  /** those of `links` that some rel=nofollow link points at */
  nofollow: string[];
  /** those of `links` outside the crawl's include/exclude scope: stored unvisited, never fetched */
  excluded?: string[];
  /** the recorded targets on other hosts (http(s), without fragment), each once */
  external: string[];
  /** distinct targets past the first `maxLinks`: ignored, counted */
  linksDropped: number;
  /**
   * The distinct (type, property, message) of its rich-result errors of current Google features, in
   * the order first found, at most 100 (rich-result-facts.ts); [] for most pages
   */
  richResultErrors: { type: string; property: string; message: string }[];
}

/** What a crawl asks of a page's links (crawl-facts.ts): which host is its own, robots.txt, the cap, its scope. */
export interface CrawlLinkOptions {
  /** the crawled host, as URL.host writes it (with :port when not the default) */
  host: string;
  /** the robots.txt text the crawl obeys (null: none, everything allowed) */
  robotsTxt: string | null;
  /** the product token whose robots.txt group the crawl obeys ("pagegrade", "googlebot") */
  robotsToken: string;
  /** distinct link targets recorded at most (1,000) */
  maxLinks: number;
  /** the crawl's strip_params: removed from the host's URLs before they are keyed (crawl-url.ts) */
  stripParams?: readonly string[];
  /** the crawl's include and exclude patterns (crawl-scope.ts): the links outside them are `excluded` */
  include?: readonly string[];
  exclude?: readonly string[];
}
