// /reports/{id}/runs: every kept run of a report, newest first, a page at a time, with the form that
// compares two of them.
import type { Page, Report, RunSummary } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { shortUrl } from './format.ts';
import type { BrandView } from './brand.ts';
import { layout, type HeaderNav } from './layout.ts';
import { pagination } from './pagination.ts';
import { compareForm, runsTable } from './run-list.ts';

export interface RunsPageOptions {
  report: Pick<Report, 'id' | 'url'>;
  nav: HeaderNav;
  page: Page<RunSummary>;
  brand: BrandView;
}

export function runsPage({ report, nav, page, brand }: RunsPageOptions): SafeHtml {
  return layout({
    title: `Runs of the SEO report for ${shortUrl(report.url)} · ${brand.name}`,
    brand,
    description: `Every kept analysis of ${report.url}.`,
    nav,
    main: html`<article class="report">
<header class="report-header">
  <p class="eyebrow">Runs</p>
  <h1 class="report-url">${shortUrl(report.url, 200)}</h1>
  <p class="report-meta"><a href="/reports/${report.id}">Back to the report</a></p>
</header>
${page.items.length === 0 ? html`<p class="empty">No run on this page.</p>` : runsTable(report.id, page.items)}
${pagination(`/reports/${report.id}/runs`, {}, page, 'runs')}
${page.items.length >= 2 ? html`<section class="panel">${compareForm({ reportId: report.id, runs: page.items })}</section>` : ''}
</article>`,
  });
}
