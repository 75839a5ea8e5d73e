// A crawl's site issues: each site check that found something, with its importance, how many findings,
// why it matters, how to fix it, and its findings naming the pages involved. Item shapes are those of
// src/crawl/site-checks/*; an item of an unknown shape is shown as its fields. Long lists are collapsed
// (<details>) behind their count. Everything in an item came from the crawled site and is escaped.
import type { Importance } from '../../checks/check.ts';
import { siteChecks } from '../../crawl/site-checks/index.ts';
import type { SiteCheckDefinition } from '../../crawl/site-checks/site-check.ts';
import type { CrawlIssue } from '../../services/crawl-view.ts';
import { html, httpUrlOrNull, withCodeSpans, type SafeHtml } from '../html.ts';
import { clip, more, renderValue } from './check-value.ts';
import { IMPORTANCE_NAMES, formatNumber, plural, shortUrl } from './format.ts';

type Item = Record<string, unknown>;

/** Findings shown at once; longer lists are collapsed behind their count. */
const OPEN_ITEMS = 5;
/** Pages named under a finding shown at once; more are collapsed. */
const OPEN_PAGES = 3;

const CHECKS = new Map<string, SiteCheckDefinition>(siteChecks.map((check) => [check.id, check]));

function recordOf(item: unknown): Item {
  return item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Item) : {};
}

function textOf(item: Item, key: string): string | null {
  const value = item[key];
  return typeof value === 'string' ? value : null;
}

function numberOf(item: Item, key: string): number | null {
  const value = item[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function urlsOf(item: Item, key: string): string[] {
  const value = item[key];
  return Array.isArray(value) ? value.filter((url): url is string => typeof url === 'string') : [];
}

/** A URL of the site as a link to it (http(s) only); anything else as text. */
export function pageLink(url: string | null): SafeHtml {
  if (url === null) return html`<span class="none">unknown</span>`;
  const href = httpUrlOrNull(url);
  return href
    ? html`<a class="url" href="${href}" rel="nofollow noopener noreferrer">${shortUrl(url, 120)}</a>`
    : html`<span class="url">${shortUrl(url, 120)}</span>`;
}

/** The pages a finding names ("Linked from 3 pages"), collapsed when there are many. */
function pageList(label: string, urls: readonly string[], total: number | null): SafeHtml | '' {
  if (urls.length === 0) return '';
  const all = Math.max(total ?? urls.length, urls.length);
  const heading = `${label} ${plural(all, 'page')}`;
  const list = html`<ul class="page-list">${urls.map((url) => html`<li>${pageLink(url)}</li>`)}${more(all, urls.length)}</ul>`;
  return all > OPEN_PAGES
    ? html`<details class="site-item-pages"><summary>${heading}</summary>${list}</details>`
    : html`<div class="site-item-pages"><p class="site-item-label">${heading}:</p>${list}</div>`;
}

function linkedFrom(item: Item): SafeHtml | '' {
  return pageList('Linked from', urlsOf(item, 'linked_from'), numberOf(item, 'linked_from_count'));
}

function onPages(label: string, item: Item): SafeHtml | '' {
  return pageList(label, urlsOf(item, 'pages'), numberOf(item, 'page_count'));
}

function quoted(text: string | null): SafeHtml {
  return text === null ? html`<span class="none">none</span>` : html`<q>${clip(text)}</q>`;
}

/** Each site check's findings in words; the keys are those its file under src/crawl/site-checks/ writes. */
const ITEM_RENDERERS: Record<string, (item: Item) => SafeHtml> = {
  broken_links(item) {
    const status = numberOf(item, 'status_code');
    const answer = status !== null ? `answers ${status}` : `cannot be fetched: ${textOf(item, 'error') ?? 'no answer'}`;
    return html`<p class="site-item-head">${pageLink(textOf(item, 'url'))} <span class="site-item-what">${answer}</span></p>${linkedFrom(item)}`;
  },
  redirected_links(item) {
    const status = numberOf(item, 'status_code');
    return html`<p class="site-item-head">${pageLink(textOf(item, 'url'))} <span class="site-item-what">redirects${status === null ? '' : ` (${status})`} to</span> ${pageLink(textOf(item, 'redirect_target'))}</p>${linkedFrom(item)}`;
  },
  redirect_chains(item) {
    const what = item.loop === true ? 'loops back to' : `takes ${plural(numberOf(item, 'hops') ?? 0, 'redirect')} to reach`;
    return html`<p class="site-item-head">${pageLink(textOf(item, 'url'))} <span class="site-item-what">${what}</span> ${pageLink(textOf(item, 'redirect_target'))}</p>${linkedFrom(item)}`;
  },
  duplicate_titles: (item) => html`<p class="site-item-head">Title ${quoted(textOf(item, 'title'))}</p>${onPages('On', item)}`,
  duplicate_descriptions: (item) => html`<p class="site-item-head">Meta description ${quoted(textOf(item, 'description'))}</p>${onPages('On', item)}`,
  duplicate_content: (item) => html`<p class="site-item-head">The same text</p>${onPages('On', item)}`,
  canonical_targets: (item) =>
    html`<p class="site-item-head">Canonical ${pageLink(textOf(item, 'canonical'))} <span class="site-item-what">${textOf(item, 'reason') ?? ''}</span></p>${onPages('Named by', item)}`,
  hreflang_reciprocity: (item) =>
    html`<p class="site-item-head">${pageLink(textOf(item, 'page'))} <span class="site-item-what">names as <code>${textOf(item, 'lang') ?? ''}</code></span> ${pageLink(textOf(item, 'alternate'))}<span class="site-item-what">, which does not name it back</span></p>`,
  orphan_pages: (item) => html`<p class="site-item-head">${pageLink(textOf(item, 'url'))}</p>`,
  sitemap_entries: (item) =>
    html`<p class="site-item-head">${pageLink(textOf(item, 'url'))} <span class="site-item-what">${textOf(item, 'reason') ?? ''}</span></p>`,
  deep_pages: (item) =>
    html`<p class="site-item-head">${pageLink(textOf(item, 'url'))} <span class="site-item-what">${plural(numberOf(item, 'depth') ?? 0, 'click')} from the start page</span></p>`,
  internal_nofollow: (item) =>
    html`<p class="site-item-head">${pageLink(textOf(item, 'page'))} <span class="site-item-what">links with rel=nofollow to</span> ${pageLink(textOf(item, 'target'))}</p>`,
};

function renderItem(checkId: string, item: unknown): SafeHtml {
  const render = ITEM_RENDERERS[checkId];
  return html`<li class="site-item">${render ? render(recordOf(item)) : renderValue(item)}</li>`;
}

function findings(issue: CrawlIssue, title: string): SafeHtml {
  const list = html`<ul class="site-items">${issue.items.map((item) => renderItem(issue.id, item))}</ul>`;
  const capped = issue.count > issue.items.length
    ? html`<p class="muted">The first ${formatNumber(issue.items.length)} of ${formatNumber(issue.count)} findings are listed.</p>`
    : '';
  if (issue.items.length === 0) return html`<p class="none">No finding was kept.</p>`;
  if (issue.items.length <= OPEN_ITEMS) return html`${list}${capped}`;
  return html`<details class="site-items-details">
  <summary>Show the ${plural(issue.items.length, 'finding')}<span class="visually-hidden">: ${title}</span></summary>
  ${list}
</details>${capped}`;
}

function importanceOf(issue: CrawlIssue): Importance {
  return issue.importance === 'high' || issue.importance === 'medium' ? issue.importance : 'low';
}

function section(heading: string, body: SafeHtml): SafeHtml {
  return html`<div class="check-section"><h4>${heading}</h4>${body}</div>`;
}

function issueItem(issue: CrawlIssue): SafeHtml {
  const check = CHECKS.get(issue.id);
  const title = check?.failureTitle ?? issue.id;
  const importance = importanceOf(issue);
  return html`<li class="check check--failed site-issue" id="issue-${issue.id}">
  <div class="check-header">
    <p class="check-badges"><span class="importance importance--${importance}">${IMPORTANCE_NAMES[importance]} importance</span>
    <span class="status status--failed">${plural(issue.count, 'finding')}</span></p>
    <h3 class="check-title">${title}</h3>
  </div>
  <div class="check-columns">
    <div>${section('What was found', findings(issue, title))}</div>
    <div>${check ? html`${section('Why it matters', html`<p>${withCodeSpans(check.description)}</p>`)}${section('How to fix', html`<p>${withCodeSpans(check.howToFix)}</p>`)}` : ''}</div>
  </div>
</li>`;
}

/** The site issues of a crawl that is done: what was found, then the checks that found nothing. */
export function siteIssuesSection(issues: readonly CrawlIssue[]): SafeHtml {
  const found = new Set(issues.map((issue) => issue.id));
  const passed = siteChecks.filter((check) => !found.has(check.id));
  return html`<section class="site-issues" id="issues" aria-labelledby="issues-heading">
  <h2 id="issues-heading">Site issues</h2>
  ${issues.length === 0
    ? html`<p class="notice" role="status">No site check found anything.</p>`
    : html`<p class="category-counts">${plural(issues.length, 'site check')} found something, by importance.</p>
  <ol class="checks">${issues.map(issueItem)}</ol>`}
  ${passed.length > 0
    ? html`<details class="passed-site-checks">
    <summary>${plural(passed.length, 'site check')} found nothing</summary>
    <ul>${passed.map((check) => html`<li>${check.title}</li>`)}</ul>
  </details>`
    : ''}
</section>`;
}
