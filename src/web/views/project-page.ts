// One project on the dashboard: its reports in numbers, its latest crawl, and a way to crawl the site.
import type { Crawl } from '../../services/crawl-view.ts';
import type { Project } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { CRAWL_REFRESH_SECONDS, crawlInProgress, crawlProgressText, crawlScoreChip, crawlStateChip } from './crawl-state.ts';
import { crawlIssueCounts } from './crawls-list.ts';
import { plural, shortUrl, timeElement } from './format.ts';
import { layout, type HeaderNav } from './layout.ts';
import { listHref } from './pagination.ts';
import { resultCountChips } from './projects-list.ts';

export interface ProjectPageOptions {
  nav: HeaderNav;
  name: string;
  /** Undefined while the project has no report (a first crawl has not made one yet). */
  project: Project | undefined;
  latestCrawl: Crawl | undefined;
  /** What "Crawl this site" puts in the start URL field. */
  crawlUrl: string;
}

function reportsPanel(name: string, project: Project | undefined): SafeHtml {
  if (!project) {
    return html`<section class="panel" aria-labelledby="reports-heading">
  <h2 id="reports-heading">Reports</h2>
  <p>No reports yet.</p>
</section>`;
  }
  return html`<section class="panel" aria-labelledby="reports-heading">
  <h2 id="reports-heading">Reports</h2>
  <p>${plural(project.reports_count, 'report')} since ${timeElement(project.created_at)}:
    ${resultCountChips(project.result_counts)}</p>
  <p><a href="${listHref('/dashboard/reports', { project: name })}">See the reports of ${name}</a></p>
</section>`;
}

function latestCrawlPanel(name: string, crawl: Crawl | undefined, crawlHref: string): SafeHtml {
  const fact = (term: string, value: SafeHtml | string) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`;
  return html`<section class="panel latest-crawl" aria-labelledby="latest-crawl-heading">
  <h2 id="latest-crawl-heading">Latest crawl</h2>
  ${crawl
    ? html`<dl class="facts">
    ${fact('Start URL', html`<a class="url" href="/dashboard/crawls/${crawl.id}">${shortUrl(crawl.url, 120)}</a> <span class="muted">#${crawl.id}</span>`)}
    ${fact('State', crawlStateChip(crawl))}
    ${fact('Pages', crawlProgressText(crawl))}
    ${fact('Site score', crawlScoreChip(crawl))}
    ${fact('Site issues', crawlIssueCounts(crawl))}
    ${fact('Started', timeElement(crawl.created_at))}
  </dl>
  <p class="form-actions"><a class="button" href="/dashboard/crawls/${crawl.id}">Open the crawl</a>
    <a href="${listHref('/dashboard/crawls', { project: name })}">All crawls of ${name}</a></p>`
    : html`<p>This site has not been crawled yet. <a href="${crawlHref}">Crawl it</a> to check every page and the site as a whole.</p>`}
</section>`;
}

export function projectPage({ nav, name, project, latestCrawl, crawlUrl }: ProjectPageOptions): SafeHtml {
  const crawlHref = listHref('/dashboard/crawls/new', { url: crawlUrl });
  return layout({
    title: `${name} · Projects · pagegrade`,
    description: `The project ${name}: its reports and its latest crawl.`,
    nav,
    refreshSeconds: latestCrawl && crawlInProgress(latestCrawl) ? CRAWL_REFRESH_SECONDS : undefined,
    main: html`<div class="page-heading">
  <div><p class="eyebrow">Project</p><h1 class="url">${name}</h1></div>
  <div class="page-heading-actions"><a class="button button--primary" href="${crawlHref}">Crawl this site</a></div>
</div>
${reportsPanel(name, project)}
${latestCrawlPanel(name, latestCrawl, crawlHref)}
${project
  ? html`<p><a class="danger-link" href="/dashboard/projects/${encodeURIComponent(name)}/delete">Delete this project…</a></p>`
  : ''}`,
  });
}
