// A crawl's page on the dashboard: the start URL, state and progress (refreshing itself while the crawl
// is under way), then the site score, the bounds it met (if any), the site issues with the pages they
// name, and the table of every URL visited (or found and never fetched) with the pages list's filters,
// sort and paging; CSV downloads of both. A lab=1 crawl also shows its lab audits by URL template.
import { crawlSettings } from './crawl-settings.ts';
import { crawlLabSection } from './crawl-lab.ts';
import { limitReachedSentence, type Crawl, type CrawlBounds, type CrawlIssue, type CrawlPage } from '../../services/crawl-view.ts';
import type { Page } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { verdictChip } from './analysis-state.ts';
import { siteIssuesSection, pageLink } from './crawl-issues.ts';
import { CRAWL_REFRESH_SECONDS, CRAWL_STATE_NAMES, crawlInProgress, crawlProgressText, crawlStateChip } from './crawl-state.ts';
import { PRIVACY_NAMES, formatNumber, plural, shortUrl, timeElement } from './format.ts';
import { issueCountsList } from './issue-counts.ts';
import { layout, type HeaderNav } from './layout.ts';
import { filterActions, listControls, resultSelect, selectOption, sortedCaption } from './list-controls.ts';
import { listHref, pagination } from './pagination.ts';
import { scoreWithVerdict } from './score-ring.ts';

const PAGE_STATUS_FILTERS = ['2xx', '3xx', '4xx', '5xx', 'failed'] as const;

interface CrawlPageFilters {
  state?: 'visited' | 'unvisited';
  scope?: 'internal' | 'external';
  status?: (typeof PAGE_STATUS_FILTERS)[number];
  result?: 'good' | 'decent' | 'bad';
  sort_by: 'url' | 'depth' | 'score' | 'inlinks';
  sort: 'asc' | 'desc';
  per_page: number;
}

export interface CrawlPageOptions {
  nav: HeaderNav;
  crawl: Crawl;
  /** The site issues once the crawl is done; null before. */
  issues: readonly CrawlIssue[] | null;
  /** The bounds the crawl met; null unless limit_reached. */
  bounds: CrawlBounds | null;
  pages: Page<CrawlPage>;
  filters: CrawlPageFilters;
}

const SORT_KEYS: readonly [CrawlPageFilters['sort_by'], string][] = [
  ['url', 'URL'],
  ['depth', 'Depth'],
  ['score', 'Score'],
  ['inlinks', 'Inlinks'],
];

const STATUS_LABELS: Record<(typeof PAGE_STATUS_FILTERS)[number], string> = {
  '2xx': '2xx (success)',
  '3xx': '3xx (redirect)',
  '4xx': '4xx (client error)',
  '5xx': '5xx (server error)',
  failed: 'Failed (no answer)',
};

function stateNotice(crawl: Crawl): SafeHtml {
  switch (crawl.state) {
    case 'queued':
      return html`<p class="notice" role="status">The crawl is queued and starts soon; this page refreshes itself.</p>`;
    case 'running':
      return html`<p class="notice" role="status">The site is being crawled; this page refreshes itself.</p>`;
    case 'failed':
      return html`<p class="notice notice--error" role="status">The crawl failed: ${crawl.error ?? 'no reason was recorded'}.</p>`;
    case 'cancelled':
      return html`<p class="notice notice--error" role="status">The crawl was cancelled. The pages it reached are below.</p>`;
    case 'done':
      return html``;
    default:
      throw new Error(`unknown state ${JSON.stringify(crawl.state satisfies never)}`);
  }
}

function header(crawl: Crawl, exported: Omit<CrawlPageFilters, 'per_page'>): SafeHtml {
  const project = `/dashboard/projects/${encodeURIComponent(crawl.project)}`;
  return html`<header class="report-header">
  <p class="eyebrow">Site audit #${crawl.id}</p>
  <h1 class="report-url">${pageLink(crawl.url)}</h1>
  <p class="report-meta">${crawlStateChip(crawl)} Started ${timeElement(crawl.created_at)}${crawl.finished_at ? html`, ended ${timeElement(crawl.finished_at)}` : ''}
    · project <a href="${project}">${crawl.project}</a></p>
  <div class="owner-bar">
    ${crawlSettings(crawl)}
    <p class="page-heading-actions">
      <a class="button" href="${listHref(`/dashboard/crawls/${crawl.id}/pages.csv`, exported)}" download>Download pages (CSV)</a>
      ${crawl.state === 'done' ? html`<a class="button" href="/dashboard/crawls/${crawl.id}/issues.csv" download>Download issues (CSV)</a>` : ''}
      ${crawl.state === 'done' ? html`<a class="button" href="/dashboard/crawls/${crawl.id}/compare">Compare</a>` : ''}
      <a class="button button--quiet danger-link" href="/dashboard/crawls/${crawl.id}/delete">${crawlInProgress(crawl) ? 'Cancel this crawl…' : 'Delete this crawl…'}</a>
    </p>
  </div>
</header>`;
}

/** The crawl's state and progress, as this page and its share page (shared-crawl-page.ts) show them. */
export function crawlProgressSection(crawl: Crawl): SafeHtml {
  const running = crawlInProgress(crawl);
  return html`<section class="crawl-progress" aria-labelledby="progress-heading">
  <h2 id="progress-heading" class="visually-hidden">Progress</h2>
  ${stateNotice(crawl)}
  <p class="crawl-progress-text" id="progress-text">${crawlProgressText(crawl)}</p>
  ${running
    ? html`<progress class="crawl-progress-bar" max="${crawl.max_pages}" value="${Math.min(crawl.pages_crawled, crawl.max_pages)}" aria-labelledby="progress-text"></progress>`
    : ''}
</section>`;
}

/**
 * A done crawl's site score (or why it has none) and its site issues by importance, then `details`:
 * here, and in `crawl --output x.html` (src/cli/outputs/crawl-html.ts).
 */
export function crawlScoreSummary(crawl: Pick<Crawl, 'score' | 'result' | 'issues'>, details: SafeHtml): SafeHtml {
  const score = crawl.score !== null && crawl.result !== null
    ? scoreWithVerdict(crawl.score, crawl.result)
    : html`<p class="none">No page could be analysed, so the site has no score.</p>`;
  return html`<section class="summary" aria-labelledby="summary-heading">
  <h2 id="summary-heading" class="visually-hidden">Site score</h2>
  <div class="score">${score}</div>
  <div class="summary-details">
    <h3>Site issues by importance</h3>
    ${issueCountsList(crawl.issues, 'site issue')}
    ${details}
  </div>
</section>`;
}

/** The site score with the page's table of contents (also on the share page). */
export function crawlSummary(crawl: Crawl): SafeHtml {
  return crawlScoreSummary(crawl, html`<h3>On this page</h3>
    <ul class="category-links">
      ${crawl.lab === null ? '' : html`<li><a href="#lab">Lab audits</a> <span class="category-counts">${plural(crawl.lab.pages, 'page')} audited</span></li>`}
      <li><a href="#issues">Site issues</a></li>
      <li><a href="#pages">Pages</a> <span class="category-counts">${plural(crawl.pages_crawled, 'page')} analysed of ${formatNumber(crawl.pages_found)} found</span></li>
    </ul>`);
}

/** The sentence of a crawl a bound cut short, with a link to the URLs it left unvisited; nothing otherwise. */
function limitNotice(crawl: Crawl, bounds: CrawlBounds | null): SafeHtml | '' {
  const sentence = limitReachedSentence(crawl, bounds);
  if (sentence === null) return '';
  const unvisited = `${listHref(`/dashboard/crawls/${crawl.id}`, { state: 'unvisited' })}#pages`;
  return html`<p class="notice crawl-limit" role="status">${sentence} <a href="${unvisited}">See the URLs not visited</a></p>`;
}

const REASON_LABELS: Record<NonNullable<CrawlPage['reason']>, string> = {
  max_pages: 'not visited: max_pages reached',
  max_depth: 'not visited: beyond max_depth',
  limit: 'not visited: a bound of the crawl',
  excluded: 'not visited: excluded',
  robots: 'not visited: robots.txt disallows it',
};

function statusCell(page: CrawlPage, state: CrawlPageFilters['state']): SafeHtml {
  if (state === 'unvisited') {
    return html`<span class="none">${page.reason === null ? 'waiting' : REASON_LABELS[page.reason]}</span>`;
  }
  return httpStatusCell(page);
}

/** A visited page's answer: its status, or why it has none. */
export function httpStatusCell(page: CrawlPage): SafeHtml {
  if (page.status_code === null) {
    return html`<span class="http-status http-status--failed">failed</span>${page.error ? html`<span class="muted">${page.error}</span>` : ''}`;
  }
  const kind = `${Math.floor(page.status_code / 100)}xx`;
  return html`<span class="http-status http-status--${kind}">${page.status_code}</span>`;
}

/** What else there is to say of a row: its title, where it redirects, why it failed, or its type. */
export function pageNote(page: CrawlPage): SafeHtml | '' {
  if (page.title) return html`<span class="muted">${page.title}</span>`;
  if (page.redirect_target) return html`<span class="muted">→ ${shortUrl(page.redirect_target, 120)}</span>`;
  if (page.content_type && !page.content_type.startsWith('text/html')) return html`<span class="muted">${page.content_type}</span>`;
  return '';
}

function pageRow(page: CrawlPage, state: CrawlPageFilters['state']): SafeHtml {
  const label = shortUrl(page.url, 120);
  return html`<tr>
  <td data-label="Page">${page.report_id === null
    ? html`<span class="report-link url">${label}</span>`
    : html`<a class="report-link" href="/reports/${page.report_id}">${label}</a>`}
    ${pageNote(page)}</td>
  <td data-label="Status">${statusCell(page, state)}</td>
  <td data-label="Depth">${page.depth === null ? html`<span class="none">sitemap only</span>` : formatNumber(page.depth)}</td>
  <td data-label="Score">${verdictChip(page, html`<span class="none">not analysed</span>`)}</td>
  <td data-label="Inlinks">${formatNumber(page.inlinks)}</td>
</tr>`;
}

function pagesFilters(crawlId: number, filters: CrawlPageFilters): SafeHtml {
  return html`<form method="get" action="/dashboard/crawls/${crawlId}#pages" class="filters" role="search" aria-label="Filter pages">
  <div class="field">
    <label for="state">URLs</label>
    <select id="state" name="state">
      ${selectOption('', 'Visited', filters.state !== 'unvisited')}
      ${selectOption('unvisited', 'Found, not visited', filters.state === 'unvisited')}
    </select>
  </div>
  <div class="field">
    <label for="status">HTTP status</label>
    <select id="status" name="status">
      ${selectOption('', 'Any status', !filters.status)}
      ${PAGE_STATUS_FILTERS.map((status) => selectOption(status, STATUS_LABELS[status], status === filters.status))}
    </select>
  </div>
  ${resultSelect(filters.result)}
  ${listControls(SORT_KEYS, filters)}
  ${filterActions(`/dashboard/crawls/${crawlId}#pages`)}
</form>`;
}

function pagesSection(crawl: Crawl, pages: Page<CrawlPage>, filters: CrawlPageFilters): SafeHtml {
  const path = `/dashboard/crawls/${crawl.id}`;
  const filtered = Boolean(filters.status || filters.result);
  const unvisited = filters.state === 'unvisited';
  return html`<section class="crawl-pages" id="pages" aria-labelledby="pages-heading">
  <h2 id="pages-heading">Pages</h2>
  <p>${unvisited
    ? 'The URLs of the site the crawl found and never fetched, each with the reason.'
    : 'Every URL of the site the crawl visited. An analysed page links to its report.'}</p>
  ${pagesFilters(crawl.id, filters)}
  ${pages.total === 0
    ? html`<p class="empty">${filtered
      ? html`No page matches these filters. <a href="${path}#pages">Show all pages</a>`
      : unvisited ? 'Every URL found was visited.' : 'No page has been reached yet.'}</p>`
    : html`<div class="table-wrap"><table class="list-table crawl-pages-table">
  ${sortedCaption('Pages', SORT_KEYS, filters)}
  <thead><tr><th scope="col">Page</th><th scope="col">Status</th><th scope="col">Depth</th><th scope="col">Score</th><th scope="col">Inlinks</th></tr></thead>
  <tbody>${pages.items.map((page) => pageRow(page, filters.state))}</tbody>
</table></div>
${pagination(path, { ...filters }, pages, 'pages', 'pages')}`}
</section>`;
}

export function crawlPage({ nav, crawl, issues, bounds, pages, filters }: CrawlPageOptions): SafeHtml {
  const { per_page: _perPage, ...exported } = filters;
  const outcome = crawl.state === 'done' && crawl.score !== null && crawl.result !== null
    ? `${crawl.score}/100 (${crawl.result})`
    : CRAWL_STATE_NAMES[crawl.state].toLowerCase();
  return layout({
    title: `Crawl of ${shortUrl(crawl.url)} — ${outcome} · pagegrade`,
    description: `Site audit of ${crawl.url}: ${crawlProgressText(crawl)}.`,
    nav,
    refreshSeconds: crawlInProgress(crawl) ? CRAWL_REFRESH_SECONDS : undefined,
    main: html`<article class="crawl">
${header(crawl, exported)}
${crawlProgressSection(crawl)}
${crawl.state === 'done' ? crawlSummary(crawl) : ''}
${limitNotice(crawl, bounds)}
${crawlLabSection(crawl.lab, crawlInProgress(crawl))}
${issues ? siteIssuesSection(issues) : ''}
${pagesSection(crawl, pages, filters)}
</article>`,
  });
}
