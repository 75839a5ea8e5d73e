// A crawl's page behind a share link (/s/{token}, docs/organisations.md "Share links"): what the
// dashboard's crawl page (crawl-page.ts) shows, read-only, built from the same parts: the start URL,
// state and progress, the site score, the bounds it met, the lab audits, the site issues with the
// pages they name, and the visited pages with their status, score and verdict, page by page. Nothing
// of the dashboard: no settings, downloads, compare or delete, no filter form, and no link into the
// dashboard or to the pages' reports (the link shares the crawl, not them): each page links to itself.
import { limitReachedSentence, type Crawl, type CrawlBounds, type CrawlIssue, type CrawlPage } from '../../services/crawl-view.ts';
import type { Page } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { verdictChip } from './analysis-state.ts';
import { BUILT_IN_BRAND, type BrandView } from './brand.ts';
import { crawlProgressSection, crawlSummary, httpStatusCell, pageNote } from './crawl-page.ts';
import { crawlLabSection } from './crawl-lab.ts';
import { pageLink, siteIssuesSection } from './crawl-issues.ts';
import { CRAWL_REFRESH_SECONDS, CRAWL_STATE_NAMES, crawlInProgress, crawlProgressText, crawlStateChip } from './crawl-state.ts';
import { formatNumber, shortUrl, timeElement } from './format.ts';
import { layout, type HeaderNav } from './layout.ts';
import { pagination } from './pagination.ts';

export interface SharedCrawlPageOptions {
  /** The share page's own path (/s/{token}): where its page links lead. */
  path: string;
  nav: HeaderNav;
  crawl: Crawl;
  /** The site issues once the crawl is done; null before. */
  issues: readonly CrawlIssue[] | null;
  /** The bounds the crawl met; null unless limit_reached. */
  bounds: CrawlBounds | null;
  /** A page of the visited pages, by URL. */
  pages: Page<CrawlPage>;
  brand?: BrandView;
}

function header(crawl: Crawl): SafeHtml {
  return html`<header class="report-header">
  <p class="eyebrow">Site audit</p>
  <h1 class="report-url">${pageLink(crawl.url)}</h1>
  <p class="report-meta">${crawlStateChip(crawl)} Started ${timeElement(crawl.created_at)}${crawl.finished_at ? html`, ended ${timeElement(crawl.finished_at)}` : ''}</p>
</header>`;
}

function pageRow(page: CrawlPage): SafeHtml {
  return html`<tr>
  <td data-label="Page">${pageLink(page.url)} ${pageNote(page)}</td>
  <td data-label="Status">${httpStatusCell(page)}</td>
  <td data-label="Depth">${page.depth === null ? html`<span class="none">sitemap only</span>` : formatNumber(page.depth)}</td>
  <td data-label="Score">${verdictChip(page, html`<span class="none">not analysed</span>`)}</td>
  <td data-label="Inlinks">${formatNumber(page.inlinks)}</td>
</tr>`;
}

function pagesSection(path: string, pages: Page<CrawlPage>): SafeHtml {
  return html`<section class="crawl-pages" id="pages" aria-labelledby="pages-heading">
  <h2 id="pages-heading">Pages</h2>
  <p>Every URL of the site the crawl visited, by URL.</p>
  ${pages.total === 0
    ? html`<p class="empty">No page has been reached yet.</p>`
    : html`<div class="table-wrap"><table class="list-table crawl-pages-table">
  <caption class="visually-hidden">Pages, by URL</caption>
  <thead><tr><th scope="col">Page</th><th scope="col">Status</th><th scope="col">Depth</th><th scope="col">Score</th><th scope="col">Inlinks</th></tr></thead>
  <tbody>${pages.items.map(pageRow)}</tbody>
</table></div>
${pagination(path, { per_page: pages.perPage === 100 ? undefined : pages.perPage }, pages, 'pages', 'pages')}`}
</section>`;
}

export function sharedCrawlPage({ path, nav, crawl, issues, bounds, pages, brand = BUILT_IN_BRAND }: SharedCrawlPageOptions): SafeHtml {
  const outcome = crawl.state === 'done' && crawl.score !== null && crawl.result !== null
    ? `${crawl.score}/100 (${crawl.result})`
    : CRAWL_STATE_NAMES[crawl.state].toLowerCase();
  const limit = limitReachedSentence(crawl, bounds);
  return layout({
    title: `Crawl of ${shortUrl(crawl.url)} — ${outcome} · ${brand.name}`,
    description: `Site audit of ${crawl.url}: ${crawlProgressText(crawl)}.`,
    nav,
    brand,
    refreshSeconds: crawlInProgress(crawl) ? CRAWL_REFRESH_SECONDS : undefined,
    main: html`<article class="crawl">
${header(crawl)}
${crawlProgressSection(crawl)}
${crawl.state === 'done' ? crawlSummary(crawl) : ''}
${limit === null ? '' : html`<p class="notice crawl-limit" role="status">${limit}</p>`}
${crawlLabSection(crawl.lab, crawlInProgress(crawl))}
${issues ? siteIssuesSection(issues) : ''}
${pagesSection(path, pages)}
</article>`,
  });
}
