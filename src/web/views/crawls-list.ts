// The dashboard's site audits: every crawl of the account, newest first, with its state, progress,
// site score and issue counts; the list API's filters and paging as a form.
import { CRAWL_STATES, type CrawlState } from '../../db/tables/crawl.table.ts';
import type { Crawl } from '../../services/crawl-view.ts';
import type { Page } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { CRAWL_REFRESH_SECONDS, CRAWL_STATE_NAMES, crawlInProgress, crawlProgressText, crawlScoreChip, crawlStateChip } from './crawl-state.ts';
import { shortUrl, timeElement } from './format.ts';
import { issueCountsInline } from './issue-counts.ts';
import { layout, type HeaderNav } from './layout.ts';
import { filterActions, listControls, selectOption } from './list-controls.ts';
import { pagination } from './pagination.ts';

interface CrawlFilters {
  project?: string;
  state?: CrawlState;
  sort_by: 'id' | 'created_at';
  sort: 'asc' | 'desc';
  per_page: number;
}

export interface CrawlsListOptions {
  nav: HeaderNav;
  page: Page<Crawl>;
  filters: CrawlFilters;
  notice?: string;
}

const SORT_KEYS: readonly [CrawlFilters['sort_by'], string][] = [
  ['id', 'Crawl number'],
  ['created_at', 'Date started'],
];

function filtersForm(filters: CrawlFilters): SafeHtml {
  return html`<form method="get" action="/dashboard/crawls" class="filters" role="search" aria-label="Filter crawls">
  <div class="field">
    <label for="project">Project (host)</label>
    <input id="project" name="project" type="search" maxlength="300" value="${filters.project ?? ''}">
  </div>
  <div class="field">
    <label for="state">State</label>
    <select id="state" name="state">
      ${selectOption('', 'Any state', !filters.state)}
      ${CRAWL_STATES.map((state) => selectOption(state, CRAWL_STATE_NAMES[state], state === filters.state))}
    </select>
  </div>
  ${listControls(SORT_KEYS, filters)}
  ${filterActions('/dashboard/crawls')}
</form>`;
}

/** "3 high, 5 medium, 2 low" once done. */
export function crawlIssueCounts(crawl: Crawl): SafeHtml {
  return crawl.state === 'done' ? issueCountsInline(crawl.issues) : html`<span class="none">not yet</span>`;
}

function crawlRow(crawl: Crawl): SafeHtml {
  return html`<tr>
  <td data-label="Crawl"><a class="report-link" href="/dashboard/crawls/${crawl.id}">${shortUrl(crawl.url)}</a>
    <span class="muted">#${crawl.id} · ${crawl.project}</span></td>
  <td data-label="State">${crawlStateChip(crawl)}</td>
  <td data-label="Pages">${crawlProgressText(crawl)}</td>
  <td data-label="Score">${crawlScoreChip(crawl)}</td>
  <td data-label="Site issues">${crawlIssueCounts(crawl)}</td>
  <td data-label="Started">${timeElement(crawl.created_at)}</td>
  <td data-label="Actions" class="row-actions"><a href="/dashboard/crawls/${crawl.id}/delete" class="danger-link">${crawlInProgress(crawl) ? 'Cancel' : 'Delete'}<span class="visually-hidden"> crawl #${crawl.id}</span></a></td>
</tr>`;
}

export function crawlsListPage({ nav, page, filters, notice }: CrawlsListOptions): SafeHtml {
  const filtered = Boolean(filters.project || filters.state);
  return layout({
    title: 'Crawls · pagegrade',
    description: 'Your site audits: crawls of whole sites.',
    nav,
    // Crawls under way change on their own: show them as they do.
    refreshSeconds: page.items.some(crawlInProgress) ? CRAWL_REFRESH_SECONDS : undefined,
    main: html`<div class="page-heading">
  <h1>Crawls</h1>
  <div class="page-heading-actions">
    <a class="button button--primary" href="/dashboard/crawls/new">New crawl</a>
  </div>
</div>
<p>A crawl follows the links of a site from a start page, analyses every HTML page it reaches (each becomes a report in the site's project) and checks the site as a whole.</p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${filtersForm(filters)}
${page.total === 0
  ? html`<p class="empty">${filtered
    ? html`No crawl matches these filters. <a href="/dashboard/crawls">Show all crawls</a>`
    : html`No crawls yet. <a href="/dashboard/crawls/new">Crawl your first site</a>`}</p>`
  : html`<div class="table-wrap"><table class="list-table crawls-table">
  <caption class="visually-hidden">Crawls, ${filters.sort === 'asc' ? 'oldest' : 'newest'} first</caption>
  <thead><tr><th scope="col">Crawl</th><th scope="col">State</th><th scope="col">Pages</th><th scope="col">Score</th><th scope="col">Site issues</th><th scope="col">Started</th><th scope="col">Actions</th></tr></thead>
  <tbody>${page.items.map(crawlRow)}</tbody>
</table></div>
${pagination('/dashboard/crawls', { ...filters }, page, 'crawls')}`}`,
  });
}
