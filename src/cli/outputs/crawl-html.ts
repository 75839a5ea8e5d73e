// `crawl --output x.html`: the crawl's report as one self-contained file: the start URL, the site's
// score and verdict, the bound it met (if any), the site issues with their findings (the dashboard's
// section, src/web/views/crawl-issues.ts), and every page visited. The stylesheets are inlined; there
// is no script, no image, nothing loaded from elsewhere, and no link to a server's pages (only to the
// crawled site's).
import { limitReachedSentence, type CrawlPage } from '../../services/crawl-view.ts';
import { escapeHtml, html, type SafeHtml } from '../../web/html.ts';
import { verdictChip } from '../../web/views/analysis-state.ts';
import { pageLink, siteIssuesSection } from '../../web/views/crawl-issues.ts';
import { crawlScoreSummary } from '../../web/views/crawl-page.ts';
import { formatNumber, plural, shortUrl } from '../../web/views/format.ts';
import type { CrawlOutcome } from '../crawl-text.ts';
import { inlinedStylesheet } from './html.ts';

function statusCell(page: CrawlPage): SafeHtml {
  if (page.status_code === null) {
    return html`<span class="http-status http-status--failed">failed</span>${page.error ? html` <span class="muted">${page.error}</span>` : ''}`;
  }
  return html`<span class="http-status http-status--${Math.floor(page.status_code / 100)}xx">${page.status_code}</span>`;
}

function pageRow(page: CrawlPage): SafeHtml {
  const note = page.title ?? (page.redirect_target ? `→ ${shortUrl(page.redirect_target, 120)}` : null);
  return html`<tr>
  <td data-label="Page">${pageLink(page.url)}${note === null ? '' : html` <span class="muted">${note}</span>`}</td>
  <td data-label="Status">${statusCell(page)}</td>
  <td data-label="Depth">${page.depth === null ? html`<span class="none">sitemap only</span>` : formatNumber(page.depth)}</td>
  <td data-label="Score">${verdictChip(page, html`<span class="none">not analysed</span>`)}</td>
  <td data-label="Inlinks">${formatNumber(page.inlinks)}</td>
</tr>`;
}

function pagesSection(pages: readonly CrawlPage[]): SafeHtml {
  return html`<section class="crawl-pages" id="pages" aria-labelledby="pages-heading">
  <h2 id="pages-heading">Pages</h2>
  <p>Every URL of the site the crawl visited (${plural(pages.length, 'URL')}).</p>
  ${pages.length === 0
    ? html`<p class="empty">No page was reached.</p>`
    : html`<div class="table-wrap"><table class="list-table crawl-pages-table">
  <thead><tr><th scope="col">Page</th><th scope="col">Status</th><th scope="col">Depth</th><th scope="col">Score</th><th scope="col">Inlinks</th></tr></thead>
  <tbody>${pages.map(pageRow)}</tbody>
</table></div>`}
</section>`;
}

function summary({ crawl }: CrawlOutcome): SafeHtml {
  return crawlScoreSummary(
    crawl,
    html`<p>${plural(crawl.pages_crawled, 'page')} analysed of ${formatNumber(crawl.pages_found)} URLs found, ${formatNumber(crawl.pages_failed)} failed.</p>`,
  );
}

function main(outcome: CrawlOutcome): SafeHtml {
  const { crawl } = outcome;
  const limit = limitReachedSentence(crawl, { reasons: [], linksDropped: outcome.pages.some((page) => page.links_dropped > 0) });
  const done = crawl.state === 'done';
  return html`<article class="crawl">
<header class="report-header">
  <h1>Site audit of ${pageLink(crawl.url)}</h1>
  ${crawl.finished_at === null ? '' : html`<p class="muted">Crawled ${crawl.finished_at}</p>`}
</header>
${done ? summary(outcome) : html`<p class="notice notice--error" role="alert">The crawl failed: ${crawl.error ?? crawl.state}</p>`}
${limit === null ? '' : html`<p class="notice crawl-limit" role="status">${limit}</p>`}
${done ? siteIssuesSection(outcome.issues) : ''}
${pagesSection(outcome.pages)}
</article>`;
}

const styleElement = (name: string, media = '') => `<style${media}>\n${inlinedStylesheet(name).replaceAll('</', '<\\/')}</style>`;

export function renderCrawlHtml(outcome: CrawlOutcome): string {
  const { crawl } = outcome;
  const verdict = crawl.score !== null && crawl.result !== null ? `${crawl.score}/100 (${crawl.result})` : crawl.state;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Crawl of ${shortUrl(crawl.url)} — ${verdict} · pagegrade`)}</title>
<meta name="robots" content="noindex">
${styleElement('app.css')}
${styleElement('print.css', ' media="print"')}
</head>
<body>
<main id="main" class="container">
${main(outcome).toString()}
</main>
<footer class="site-footer">
  <div class="container">Made with pagegrade crawl.</div>
</footer>
</body>
</html>
`;
}
