// Crawls, their pages and their issues as the API shows them (docs/api.md, "Site audits (crawls)").
import type { CrawlMode, CrawlPageRow, CrawlRow, CrawlState, CrawlTrigger, CrawlUserAgent, UnvisitedReason } from '../db/tables/crawl.table.ts';
import type { IssueRow } from '../repositories/crawl-issue.repository.ts';
import type { CrawlLabSummary, CrawlLabTemplate } from '../crawl/crawl-lab-summary.ts';
import type { LabProfileName } from '../lab/lab-types.ts';

/** A lab=1 crawl's lab audits (docs/lab.md, "Lab audits of a crawl"). */
export interface CrawlLab {
  profile: LabProfileName;
  lab_pages: number;
  /** pages whose lab audit succeeded so far */
  pages: number;
  /** one per URL template with such a page, in the order of the templates' first pages */
  templates: CrawlLabTemplate[];
}

export interface Crawl {
  id: number;
  url: string;
  project: string;
  /** the organisation that owns it */
  organization: number;
  state: CrawlState;
  max_pages: number;
  max_depth: number;
  sitemap: 0 | 1;
  privacy: number;
  render: 0 | 1;
  pages_found: number;
  pages_crawled: number;
  pages_failed: number;
  /** HTTP requests sent to the crawled host so far (docs/crawls.md, "Bounds") */
  requests: number;
  /** a bound left part of the site unvisited, or dropped a page's links */
  limit_reached: boolean;
  /** URLs found and never fetched: pages_found - pages_visited */
  pages_unvisited: number;
  score: number | null;
  result: 'good' | 'decent' | 'bad' | null;
  issues: { high: number; medium: number; low: number };
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  mode: CrawlMode;
  trigger: CrawlTrigger;
  previous_crawl_id: number | null;
  external: 0 | 1;
  external_checked: number;
  include: string[];
  exclude: string[];
  strip_params: string[];
  /** the request headers' names, never their values */
  header_names: string[];
  user_agent: CrawlUserAgent;
  schedule: string;
  next_run_at: string | null;
  /** null unless the crawl was started with lab=1 */
  lab: CrawlLab | null;
}

const stringsOf = (json: string): string[] => JSON.parse(json) as string[];

export function toCrawl(row: CrawlRow): Crawl {
  const ended = row.state === 'done';
  return {
    id: row.id,
    url: row.url,
    project: row.project,
    organization: row.organization_id,
    state: row.state,
    max_pages: row.max_pages,
    max_depth: row.max_depth,
    sitemap: row.use_sitemap === 1 ? 1 : 0,
    privacy: row.privacy,
    render: row.render === 1 ? 1 : 0,
    pages_found: row.pages_found,
    pages_crawled: row.pages_crawled,
    pages_failed: row.pages_failed,
    requests: row.requests,
    limit_reached: row.limit_reached === 1,
    // Never below 0, even for a moment when a counter is updated before the other.
    pages_unvisited: Math.max(0, row.pages_found - row.pages_visited),
    score: ended ? row.score : null,
    result: ended ? row.result : null,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    error: row.error,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    mode: row.mode,
    trigger: row.trigger,
    previous_crawl_id: row.previous_crawl_id,
    external: row.external === 1 ? 1 : 0,
    external_checked: row.external_checked,
    include: stringsOf(row.include),
    exclude: stringsOf(row.exclude),
    strip_params: stringsOf(row.strip_params),
    header_names: stringsOf(row.header_names),
    user_agent: row.user_agent,
    schedule: row.schedule,
    next_run_at: row.next_run_at,
    lab: labOf(row),
  };
}

/** The crawl's lab audits: none yet until its pages are chosen (lab_summary null). */
function labOf(row: CrawlRow): CrawlLab | null {
  if (row.lab_profile === null) return null;
  const summary = row.lab_summary === null ? { pages: 0, templates: [] } : (JSON.parse(row.lab_summary) as CrawlLabSummary);
  return { profile: row.lab_profile as LabProfileName, lab_pages: row.lab_pages ?? 0, pages: summary.pages, templates: summary.templates };
}

/** The bounds a crawl met: the reasons its URLs were left unvisited for, and whether a page's links were dropped. */
export interface CrawlBounds {
  reasons: UnvisitedReason[];
  linksDropped: boolean;
}

/**
 * What a crawl with limit_reached says of itself (the dashboard and the CLI): how many URLs found
 * were not visited and which bounds were hit; null for a crawl that met none. Without `bounds` (not
 * read) it names none.
 */
export function limitReachedSentence(crawl: Crawl, bounds: CrawlBounds | null): string | null {
  if (!crawl.limit_reached) return null;
  const hit: string[] = [...(bounds?.reasons ?? [])];
  if (bounds?.linksDropped) hit.push('links per page');
  const which = hit.length > 0 ? ` (${hit.join(', ')})` : '';
  return `Limit reached: ${crawl.pages_unvisited.toLocaleString('en-US')} of ${crawl.pages_found.toLocaleString('en-US')} URLs found ` +
    `were not visited${which}. The site checks judged only the pages visited.`;
}

export interface CrawlPage {
  url: string;
  /** a URL of another host (a link checked, not crawled) */
  external: boolean;
  status_code: number | null;
  depth: number | null;
  title: string | null;
  content_type: string | null;
  report_id: number | null;
  score: number | null;
  result: 'good' | 'decent' | 'bad' | null;
  inlinks: number;
  /** the page's distinct link targets past the first 1,000: not followed nor judged */
  links_dropped: number;
  /** where its redirects end, when it redirects */
  redirect_target: string | null;
  error: string | null;
  /** why a URL found was never fetched; null for a visited one, or one still waiting while the crawl runs */
  reason: UnvisitedReason | null;
}

export function toCrawlPage(row: CrawlPageRow): CrawlPage {
  // An unvisited URL was never requested: it has only its URL, depth and reason.
  if (row.state !== 'done') {
    return {
      url: row.url,
      external: false,
      status_code: null,
      depth: row.depth,
      title: null,
      content_type: null,
      report_id: null,
      score: null,
      result: null,
      inlinks: 0,
      links_dropped: 0,
      redirect_target: null,
      error: null,
      reason: row.reason,
    };
  }
  return {
    url: row.url,
    external: false,
    status_code: row.status_code,
    depth: row.depth,
    title: row.title,
    content_type: row.content_type,
    report_id: row.report_id,
    score: row.score,
    result: row.result,
    inlinks: row.inlinks,
    links_dropped: row.links_dropped,
    redirect_target: row.redirect_target,
    error: row.error,
    reason: null,
  };
}

export interface CrawlIssue {
  id: string;
  importance: string;
  count: number;
  items: unknown[];
}

const IMPORTANCE_ORDER: Record<string, number> = { high: 0, medium: 1, low: 2 };

/** Findings first, by importance then count; checks that found nothing are left out. */
export function toCrawlIssues(rows: readonly IssueRow[]): CrawlIssue[] {
  return rows
    .filter((row) => row.count > 0)
    .map((row) => ({ id: row.check_id, importance: row.importance, count: row.count, items: JSON.parse(row.items) as unknown[] }))
    .sort((a, b) => (IMPORTANCE_ORDER[a.importance] ?? 3) - (IMPORTANCE_ORDER[b.importance] ?? 3) || b.count - a.count || a.id.localeCompare(b.id));
}
