// A crawl's summary for people: the site's verdict, whether a bound cut it short, its issues by
// importance with the first items, and the pages that failed or answered with an error.
import { limitReachedSentence, type Crawl, type CrawlBounds, type CrawlIssue, type CrawlPage } from '../services/crawl-view.ts';
import { printable, truncate, type Style } from './terminal-text.ts';

/** What `crawl` prints: as JSON with --json, else as this text. */
export interface CrawlOutcome {
  crawl: Crawl;
  issues: CrawlIssue[];
  pages: CrawlPage[];
}

const ITEMS_SHOWN = 5;
const PAGES_SHOWN = 20;

function verdict(result: string | null, style: Style): string {
  if (result === 'good') return style.green(result);
  if (result === 'decent') return style.yellow(result);
  return style.red(result ?? 'none');
}

/** One line for a finding: its URL-like fields first, then anything else it says. */
function describeItem(item: unknown): string {
  if (typeof item !== 'object' || item === null) return printable(String(item));
  const parts = Object.entries(item as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0))
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.slice(0, 3).join(', ') + (value.length > 3 ? ', ...' : '') : String(value)}`);
  return truncate(printable(parts.join('; ')), 160);
}

/**
 * `bounds`: the bounds the crawl met (the crawl service's bounds()); without them the limit line
 * names only what the visited pages show (links per page).
 */
export function renderCrawlText({ crawl, issues, pages }: CrawlOutcome, style: Style, bounds?: CrawlBounds | null): string {
  const limit = limitReachedSentence(crawl, bounds ?? { reasons: [], linksDropped: pages.some((page) => page.links_dropped > 0) });
  const lines = [
    `${style.bold(printable(crawl.url))}`,
    `Site: ${crawl.score ?? '-'} ${verdict(crawl.result, style)}  ${crawl.pages_crawled} pages analysed, ${crawl.pages_found} URLs found, ${crawl.pages_failed} failed`,
    ...(limit === null ? [] : [style.yellow(limit)]),
    `Issues: ${crawl.issues.high} high, ${crawl.issues.medium} medium, ${crawl.issues.low} low`,
    '',
  ];
  for (const issue of issues) {
    lines.push(`${issue.importance === 'high' ? style.red(issue.importance) : issue.importance} ${style.bold(issue.id)} (${issue.count})`);
    for (const item of issue.items.slice(0, ITEMS_SHOWN)) lines.push(`  - ${describeItem(item)}`);
    if (issue.count > ITEMS_SHOWN) lines.push(style.dim(`  ... and ${issue.count - ITEMS_SHOWN} more`));
  }
  const troubled = pages.filter((page) => page.error !== null || page.status_code === null || page.status_code >= 400);
  if (troubled.length > 0) {
    lines.push('', style.bold('Pages with errors'));
    for (const page of troubled.slice(0, PAGES_SHOWN)) {
      lines.push(`  ${page.status_code ?? 'failed'}  ${printable(page.url)}${page.error ? `: ${printable(page.error)}` : ''}`);
    }
    if (troubled.length > PAGES_SHOWN) lines.push(style.dim(`  ... and ${troubled.length - PAGES_SHOWN} more`));
  }
  return `${lines.join('\n')}\n`;
}
