// How a crawl's state, progress and result show on the dashboard: the state chip, the score chip, the
// progress line, and the meta refresh of pages that show a crawl under way (no script needed).
import type { CrawlState } from '../../db/tables/crawl.table.ts';
import type { Crawl } from '../../services/crawl-view.ts';
import { html, type SafeHtml } from '../html.ts';
import { verdictChip } from './analysis-state.ts';
import { formatNumber } from './format.ts';

/** Seconds between reloads of a page that shows a crawl under way: a crawl takes a while. */
export const CRAWL_REFRESH_SECONDS = 5;

export const CRAWL_STATE_NAMES: Record<CrawlState, string> = {
  queued: 'Queued',
  running: 'Crawling',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function crawlInProgress(crawl: Pick<Crawl, 'state'>): boolean {
  return crawl.state === 'queued' || crawl.state === 'running';
}

export function crawlStateChip(crawl: Pick<Crawl, 'state'>): SafeHtml {
  return html`<span class="state-chip state-chip--${crawl.state}">${CRAWL_STATE_NAMES[crawl.state]}</span>`;
}

/** The site score and verdict once the crawl is done; a muted word otherwise. */
export function crawlScoreChip(crawl: Pick<Crawl, 'score' | 'result' | 'state'>): SafeHtml {
  return verdictChip(crawl, html`<span class="none">${crawl.state === 'done' ? 'no page scored' : 'not yet'}</span>`);
}

/** "12 of 100 pages analysed, 40 found, 1 failed". */
export function crawlProgressText(crawl: Pick<Crawl, 'pages_crawled' | 'max_pages' | 'pages_found' | 'pages_failed'>): string {
  return `${formatNumber(crawl.pages_crawled)} of ${formatNumber(crawl.max_pages)} pages analysed, ` +
    `${formatNumber(crawl.pages_found)} found, ${formatNumber(crawl.pages_failed)} failed`;
}
