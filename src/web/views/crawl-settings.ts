// What a crawl was asked to do, on its page: its bounds, scope, user agent, the names of the request
// headers it sends (never their values), the lab audits asked for, the external links it checked and
// its schedule.
import type { Crawl } from '../../services/crawl-view.ts';
import { html, type SafeHtml } from '../html.ts';
import { PRIVACY_NAMES, formatNumber, plural, timeElement } from './format.ts';

const USER_AGENT_NAMES: Record<Crawl['user_agent'], string> = {
  default: 'pagegrade',
  desktop: 'desktop Chrome',
  mobile: 'mobile Chrome',
  googlebot_smartphone: 'Googlebot smartphone',
  googlebot_desktop: 'Googlebot desktop',
};

const codes = (values: readonly string[]): SafeHtml[] => values.map((value, index) => html`${index > 0 ? ', ' : ''}<code>${value}</code>`);

function boundsText(crawl: Crawl): string {
  const what = crawl.mode === 'list' ? 'The URLs listed' : `Up to ${plural(crawl.max_pages, 'page')}, ${plural(crawl.max_depth, 'click')} deep, ${crawl.sitemap === 1 ? 'with' : 'without'} the sitemaps`;
  return `${what}; ${PRIVACY_NAMES[crawl.privacy === 1 ? 1 : 0].toLowerCase()} reports.`;
}

export function crawlSettings(crawl: Crawl): SafeHtml {
  const rows: SafeHtml[] = [html`<div><dt>Pages</dt><dd>${boundsText(crawl)}</dd></div>`];
  if (crawl.include.length > 0) rows.push(html`<div><dt>Only</dt><dd>${codes(crawl.include)}</dd></div>`);
  if (crawl.exclude.length > 0) rows.push(html`<div><dt>Never</dt><dd>${codes(crawl.exclude)}</dd></div>`);
  if (crawl.strip_params.length > 0) rows.push(html`<div><dt>Parameters ignored</dt><dd>${codes(crawl.strip_params)}</dd></div>`);
  rows.push(html`<div><dt>User agent</dt><dd>${USER_AGENT_NAMES[crawl.user_agent]}</dd></div>`);
  if (crawl.header_names.length > 0) rows.push(html`<div><dt>Request headers</dt><dd>${codes(crawl.header_names)} <span class="muted">(values kept encrypted)</span></dd></div>`);
  if (crawl.lab !== null) rows.push(html`<div><dt>Lab audits</dt><dd>Up to ${plural(crawl.lab.lab_pages, 'page')}, ${crawl.lab.profile} profile</dd></div>`);
  rows.push(html`<div><dt>External links</dt><dd>${crawl.external === 1 ? `${formatNumber(crawl.external_checked)} checked` : 'not checked'}</dd></div>`);
  if (crawl.schedule !== 'off') {
    rows.push(html`<div><dt>Schedule</dt><dd><code>${crawl.schedule}</code>${crawl.next_run_at ? html`, next ${timeElement(crawl.next_run_at)}` : ''}</dd></div>`);
  }
  if (crawl.previous_crawl_id !== null) rows.push(html`<div><dt>Scheduled after</dt><dd><a href="/dashboard/crawls/${crawl.previous_crawl_id}">crawl #${crawl.previous_crawl_id}</a></dd></div>`);
  return html`<dl class="crawl-settings">${rows}</dl>`;
}
