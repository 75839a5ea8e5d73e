import type { Generated, Selectable } from 'kysely';
import type { ReportResult } from './report.table.ts';

export const CRAWL_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type CrawlState = (typeof CRAWL_STATES)[number];

/** A site audit: its settings, progress counters and, once it ends, its score and issue counts. */
export interface CrawlsTable {
  id: Generated<number>;
  organization_id: number;
  /** the start URL, normalised */
  url: string;
  /** the start URL's host (with :port when not the default): the reports' project */
  project: string;
  state: CrawlState;
  max_pages: number;
  max_depth: number;
  /** 1: the sitemaps' URLs seed the frontier too */
  use_sitemap: number;
  /** privacy of the reports it makes */
  privacy: number;
  render: number;
  pages_found: Generated<number>;
  pages_crawled: Generated<number>;
  pages_failed: Generated<number>;
  score: number | null;
  result: ReportResult | null;
  issues_high: Generated<number>;
  issues_medium: Generated<number>;
  issues_low: Generated<number>;
  crawl_delay_ms: Generated<number>;
  /** JSON of OriginFacts, read once when the crawl starts */
  origin_facts: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** its queue jobs' ids are made from this; one up each time the crawl is resumed after they were lost */
  job_generation: Generated<number>;
  /** when the current generation's jobs were queued; null: when the crawl was made */
  jobs_queued_at: string | null;
  /** HTTP requests sent to the crawled host so far (robots.txt, sitemaps there, probes, pages, retries) */
  requests: Generated<number>;
  /** URLs of the host fetched (whatever the answer): pages_found - pages_visited were never fetched */
  pages_visited: Generated<number>;
  /** URLs found while the frontier was full: counted in pages_found (once per linking page), never stored */
  pages_unstored: Generated<number>;
  /** 1: a bound left part of the site unvisited (or dropped a page's links) */
  limit_reached: Generated<number>;
  /** while the crawl's start requests (robots.txt, sitemaps, probes) are under way: they count as in flight on the host */
  start_lease_until: string | null;
  /** while one job runs the crawl's finish: the other jobs, idle at the same moment, leave it to that one */
  finishing_until: string | null;
  mode: Generated<CrawlMode>;
  /** list mode: the URLs given, a JSON array; null for a spider crawl */
  urls: string | null;
  trigger: Generated<CrawlTrigger>;
  /** a scheduled crawl: the crawl whose schedule it ran */
  previous_crawl_id: number | null;
  /** 1: links to other hosts are checked */
  external: Generated<number>;
  /** distinct external URLs checked */
  external_checked: Generated<number>;
  /** JSON arrays of strings, as normalised */
  include: Generated<string>;
  exclude: Generated<string>;
  strip_params: Generated<string>;
  /** the request headers' names as given, a JSON array */
  header_names: Generated<string>;
  /** the request headers, a JSON object sealed with PAGEGRADE_SECRET_KEY; null without headers */
  headers_sealed: string | null;
  user_agent: Generated<CrawlUserAgent>;
  /** off | daily | weekly | monthly | a 5-field cron expression (UTC) */
  schedule: Generated<string>;
  next_run_at: string | null;
  /** lab audits of the pages it chooses (lab=1): mobile | desktop; null: none (docs/lab.md, "Lab audits of a crawl") */
  lab_profile: string | null;
  /** how many pages get a lab audit at most (1 to 200); null without lab audits */
  lab_pages: number | null;
  /** JSON of CrawlLabSummary (the audits that succeeded so far); null until the pages to audit are chosen */
  lab_summary: string | null;
}

export const CRAWL_MODES = ['spider', 'list'] as const;
export type CrawlMode = (typeof CRAWL_MODES)[number];
export const CRAWL_TRIGGERS = ['create', 'schedule'] as const;
export type CrawlTrigger = (typeof CRAWL_TRIGGERS)[number];
export const CRAWL_USER_AGENTS = ['default', 'desktop', 'mobile', 'googlebot_smartphone', 'googlebot_desktop'] as const;
export type CrawlUserAgent = (typeof CRAWL_USER_AGENTS)[number];

type CrawlPageState = 'pending' | 'fetching' | 'done' | 'blocked';

/** One URL of the crawled host: frontier entry first, then what fetching it found. */
export interface CrawlPagesTable {
  id: Generated<number>;
  crawl_id: number;
  url: string;
  state: CrawlPageState;
  /** clicks from the start page; null for a URL known only from a sitemap */
  depth: number | null;
  in_sitemap: Generated<number>;
  /** 1: fetched even without a click depth (a sitemap URL, or where one redirects) */
  seeded: Generated<number>;
  /** while fetching: when the claim runs out and another worker may take the page */
  lease_until: string | null;
  attempts: Generated<number>;
  /** the answer's status (a redirect's 3xx: redirects are recorded, not followed); null when not fetched */
  status_code: number | null;
  /** where a redirect points (normalised when on the host); chains are followed through the rows */
  redirect_target: string | null;
  content_type: string | null;
  error: string | null;
  title: string | null;
  report_id: number | null;
  score: number | null;
  result: ReportResult | null;
  inlinks: Generated<number>;
  /** why a URL found was never fetched; null for a visited one (or one still waiting) */
  reason: UnvisitedReason | null;
  /** redirects in a row that led here from the first URL found by a link, a sitemap or as the start */
  redirects: Generated<number>;
  /** the page's distinct link targets past the first 1,000: ignored, counted */
  links_dropped: Generated<number>;
  /** 1: an analysed HTML page; the facts below are set for these only */
  html: Generated<number>;
  noindex: Generated<number>;
  description: string | null;
  /** its valid canonical, absolute and normalised */
  canonical: string | null;
  /** 1: the canonical is a URL of the host that robots.txt disallows */
  canonical_blocked: Generated<number>;
  text_hash: string | null;
  /** JSON array of {lang, url}; null without alternates */
  hreflang: string | null;
  /** an analysed page: the number of the run of its report the crawl made (a lab audit becomes part of it) */
  run_number: number | null;
  /** JSON array of its distinct rich-result errors as [type, property, message]; null without any (rich-result-column.ts) */
  rich_result_errors: string | null;
}

/** pending (to audit) | auditing (claimed until lease_until) | done */
type CrawlLabPageState = 'pending' | 'auditing' | 'done';

/** A page a lab crawl chose to audit (docs/lab.md, "Lab audits of a crawl"), claimed with a lease as a page is. */
export interface CrawlLabPagesTable {
  crawl_id: number;
  /** 0, 1, ...: the order of the round-robin pick, and of the audits */
  pick: number;
  /** its crawl_pages row */
  page_id: number;
  url: string;
  /** its URL template (/product/{n}) and that template's place in the order of the templates' first pages */
  template: string;
  template_rank: number;
  /** the run the audit becomes part of (null: the report was deleted since) */
  report_id: number | null;
  run_number: number;
  state: Generated<CrawlLabPageState>;
  /** while auditing: when the claim runs out and another worker may take the page */
  lease_until: string | null;
  /** the claim's number: only the latest claim may store the audit */
  attempts: Generated<number>;
  /** once done: 1 the audit observed the page, 0 it could not (error says why); null before */
  audited: number | null;
  error: string | null;
  lcp_ms: number | null;
  cls: number | null;
  tbt_ms: number | null;
  accessibility_score: number | null;
}

export const UNVISITED_REASONS = ['max_pages', 'max_depth', 'limit', 'excluded', 'robots'] as const;
export type UnvisitedReason = (typeof UNVISITED_REASONS)[number];

/** One recorded link of an analysed page to a URL of the crawl (both crawl_pages ids). */
export interface CrawlLinksTable {
  crawl_id: number;
  to_id: number;
  from_id: number;
  /** 1: some link from the page to the target carries rel=nofollow */
  nofollow: Generated<number>;
}

/** An external URL a crawled page links to, checked once per crawl (HEAD, GET when refused). */
export interface CrawlExternalsTable {
  id: Generated<number>;
  crawl_id: number;
  url: string;
  /** URL.host (with :port): link checks are polite per external host */
  host: string;
  state: 'pending' | 'checking' | 'done';
  lease_until: string | null;
  attempts: Generated<number>;
  /** 'limit': past PAGEGRADE_CRAWL_MAX_EXTERNAL, never checked */
  reason: 'limit' | null;
  /** the final answer's status after redirects; null when unreachable or unchecked */
  status_code: number | null;
  /** where its redirects ended; null when it did not redirect */
  redirect_target: string | null;
  content_type: string | null;
  /** why it is unreachable or broken (address guard, DNS, timeout, too many redirects...) */
  error: string | null;
}

/** One link of an analysed page (crawl_pages id) to an external URL (crawl_externals id). */
export interface CrawlExternalLinksTable {
  crawl_id: number;
  to_id: number;
  from_id: number;
}

/** Politeness per host across crawls and processes: no request to it before next_fetch_at (ISO-8601 UTC). */
export interface CrawlHostsTable {
  host: string;
  next_fetch_at: string;
}

/** A site check's findings for a crawl that ended. */
export interface CrawlIssuesTable {
  crawl_id: number;
  check_id: string;
  importance: string;
  count: number;
  /** JSON array */
  items: string;
}

export type CrawlRow = Selectable<CrawlsTable>;
export type CrawlPageRow = Selectable<CrawlPagesTable>;
export type CrawlExternalRow = Selectable<CrawlExternalsTable>;
export type CrawlLabPageRow = Selectable<CrawlLabPagesTable>;
