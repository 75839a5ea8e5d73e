// The columns of a crawl's exports (format=csv on /crawls/{id}/pages and /issues, and `crawl --csv`):
// a page's fields as in the JSON; an issue's findings as one JSON cell, since their shape differs by check.
import type { CrawlIssue, CrawlPage } from '../services/crawl-view.ts';
import type { CsvColumn } from './csv.ts';

export const CRAWL_PAGE_CSV_COLUMNS: readonly CsvColumn<CrawlPage>[] = [
  { header: 'url', cell: (page) => page.url },
  { header: 'status_code', cell: (page) => page.status_code },
  { header: 'depth', cell: (page) => page.depth },
  { header: 'title', cell: (page) => page.title },
  { header: 'content_type', cell: (page) => page.content_type },
  { header: 'report_id', cell: (page) => page.report_id },
  { header: 'score', cell: (page) => page.score },
  { header: 'result', cell: (page) => page.result },
  { header: 'inlinks', cell: (page) => page.inlinks },
  { header: 'redirect_target', cell: (page) => page.redirect_target },
  { header: 'error', cell: (page) => page.error },
  { header: 'external', cell: (page) => page.external },
  { header: 'links_dropped', cell: (page) => page.links_dropped },
  { header: 'reason', cell: (page) => page.reason },
];

export const CRAWL_ISSUE_CSV_COLUMNS: readonly CsvColumn<CrawlIssue>[] = [
  { header: 'id', cell: (issue) => issue.id },
  { header: 'importance', cell: (issue) => issue.importance },
  { header: 'count', cell: (issue) => issue.count },
  { header: 'items', cell: (issue) => JSON.stringify(issue.items) },
];
