// The columns of a crawl's exports (format=csv on /crawls/{id}/pages and /issues, and `crawl --csv`):
// a page's fields as in the JSON; an issue's findings as one JSON cell, since their shape differs by check,
// except for the checks whose findings are a row each (crawlIssueCsvRows).
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

/**
 * Site checks whose issues export writes a row per finding (docs/structured-data.md, "Crawls"): each a
 * problem of its own with its pages, which a spreadsheet sorts and filters as rows.
 */
const ROW_PER_ITEM: ReadonlySet<string> = new Set(['rich_result_errors']);

/** The issues as the export's rows: one per issue, or one per listed item (its `items` that item alone). */
export function* crawlIssueCsvRows(issues: Iterable<CrawlIssue>): Generator<CrawlIssue> {
  for (const issue of issues) {
    if (!ROW_PER_ITEM.has(issue.id) || issue.items.length === 0) yield issue;
    else for (const item of issue.items) yield { ...issue, items: [item] };
  }
}
