// Crawls, their pages and their issues as the API shows them (docs/api.md, "Site audits (crawls)").
import type { CrawlPageRow, CrawlRow, CrawlState } from '../db/tables/crawl.table.ts';
import type { IssueRow } from '../repositories/crawl.repository.ts';

export interface Crawl {
  id: number;
  url: string;
  project: string;
  state: CrawlState;
  max_pages: number;
  max_depth: number;
  sitemap: 0 | 1;
  privacy: number;
  render: 0 | 1;
  pages_found: number;
  pages_crawled: number;
  pages_failed: number;
  score: number | null;
  result: 'good' | 'decent' | 'bad' | null;
  issues: { high: number; medium: number; low: number };
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export function toCrawl(row: CrawlRow): Crawl {
  const ended = row.state === 'done';
  return {
    id: row.id,
    url: row.url,
    project: row.project,
    state: row.state,
    max_pages: row.max_pages,
    max_depth: row.max_depth,
    sitemap: row.use_sitemap === 1 ? 1 : 0,
    privacy: row.privacy,
    render: row.render === 1 ? 1 : 0,
    pages_found: row.pages_found,
    pages_crawled: row.pages_crawled,
    pages_failed: row.pages_failed,
    score: ended ? row.score : null,
    result: ended ? row.result : null,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    error: row.error,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

export interface CrawlPage {
  url: string;
  status_code: number | null;
  depth: number | null;
  title: string | null;
  content_type: string | null;
  report_id: number | null;
  score: number | null;
  result: 'good' | 'decent' | 'bad' | null;
  inlinks: number;
  /** where its redirects end, when it redirects */
  redirect_target: string | null;
  error: string | null;
}

export function toCrawlPage(row: CrawlPageRow): CrawlPage {
  return {
    url: row.url,
    status_code: row.status_code,
    depth: row.depth,
    title: row.title,
    content_type: row.content_type,
    report_id: row.report_id,
    score: row.score,
    result: row.result,
    inlinks: row.inlinks,
    redirect_target: row.redirect_target,
    error: row.error,
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
