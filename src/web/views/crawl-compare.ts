// Two crawls of a site compared on the dashboard (/dashboard/crawls/{id}/compare?from=): the scores and
// results, each site check's findings that are new, fixed, persisting or could not be judged (the new
// and fixed ones listed), and the pages added, removed or answering another status; a GET form picks
// the crawl to compare with, so comparing needs no script. The diff is the API's (src/crawl/crawl-diff.ts).
import { MAX_LISTED, type CrawlDiff, type DiffSide, type IssueDiff } from '../../crawl/crawl-diff.ts';
import { siteChecks } from '../../crawl/site-checks/index.ts';
import type { Crawl } from '../../services/crawl-view.ts';
import { html, type SafeHtml } from '../html.ts';
import { clip, renderValue } from './check-value.ts';
import { pageLink } from './crawl-issues.ts';
import { IMPORTANCE_NAMES, VERDICT_NAMES, formatNumber, plural, shortUrl, timeElement } from './format.ts';
import { layout, type HeaderNav } from './layout.ts';
import { selectOption } from './list-controls.ts';
import { scoreDelta } from './score-delta.ts';

export interface CrawlComparePageOptions {
  nav: HeaderNav;
  /** the crawl compared ({id}) */
  crawl: Crawl;
  /** the done crawls of its URL it may be compared with, newest first */
  choices: readonly Crawl[];
  diff?: CrawlDiff;
  /** why there is no diff to show: the crawl has not finished, or there is nothing earlier */
  notice?: string;
  /** the `from` asked for was refused */
  error?: string;
  /** the `from` asked for, kept selected */
  from?: number;
}

type Item = Record<string, unknown>;

const TITLES = new Map(siteChecks.map((check) => [check.id, check.failureTitle]));

const recordOf = (item: unknown): Item => (item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Item) : {});
const textOf = (item: Item, key: string): string | null => (typeof item[key] === 'string' ? (item[key] as string) : null);
const quoted = (text: string | null): SafeHtml => (text === null ? html`<span class="none">none</span>` : html`<q>${clip(text)}</q>`);

/** A finding in a line: what identifies it (its key), as the crawl's page names it. */
function findingLine(checkId: string, value: unknown): SafeHtml {
  const item = recordOf(value);
  switch (checkId) {
    case 'duplicate_titles':
      return html`Title ${quoted(textOf(item, 'title'))}`;
    case 'duplicate_descriptions':
      return html`Meta description ${quoted(textOf(item, 'description'))}`;
    case 'duplicate_content':
      return html`The same text on ${pageLink(Array.isArray(item.pages) && typeof item.pages[0] === 'string' ? item.pages[0] : null)} and others`;
    case 'canonical_targets':
      return html`Canonical ${pageLink(textOf(item, 'canonical'))} <span class="site-item-what">${textOf(item, 'reason') ?? ''}</span>`;
    case 'hreflang_reciprocity':
      return html`${pageLink(textOf(item, 'page'))} <span class="site-item-what">names as <code>${textOf(item, 'lang') ?? ''}</code></span> ${pageLink(textOf(item, 'alternate'))}`;
    case 'internal_nofollow':
      return html`${pageLink(textOf(item, 'page'))} <span class="site-item-what">links with rel=nofollow to</span> ${pageLink(textOf(item, 'target'))}`;
    default:
      return textOf(item, 'url') === null ? renderValue(value) : pageLink(textOf(item, 'url'));
  }
}

function crawlName(side: Pick<DiffSide, 'id'>): string {
  return `Crawl #${side.id}`;
}

function sideLine(side: DiffSide): SafeHtml {
  return html`<a href="/dashboard/crawls/${side.id}">${crawlName(side)}</a>${side.finished_at ? html`, ended ${timeElement(side.finished_at)}` : ''}`;
}

function resultChange(diff: CrawlDiff): SafeHtml {
  const name = (result: DiffSide['result']) => (result === null ? 'no result' : VERDICT_NAMES[result]);
  return diff.from.result === diff.to.result
    ? html`result still <strong>${name(diff.to.result)}</strong>`
    : html`result <strong>${name(diff.from.result)} → ${name(diff.to.result)}</strong>`;
}

function summary(diff: CrawlDiff): SafeHtml {
  const score = (side: DiffSide) => (side.score === null ? 'no score' : String(side.score));
  const cut = [diff.from, diff.to].filter((side) => side.limit_reached);
  return html`<section class="panel compare-summary" aria-labelledby="compare-summary-heading">
  <h2 id="compare-summary-heading">${sideLine(diff.from)} → ${sideLine(diff.to)}</h2>
  <p>Score ${score(diff.from)} → ${score(diff.to)} ${scoreDelta(diff.score_delta)}, ${resultChange(diff)}; ${formatNumber(diff.from.pages_crawled)} → ${formatNumber(diff.to.pages_crawled)} pages analysed.</p>
  ${cut.length > 0
    ? html`<p class="muted">${cut.map(crawlName).join(' and ')} reached a limit: a finding on a page only one crawl visited is not comparable.</p>`
    : ''}
</section>`;
}

function findingList(checkId: string, heading: string, items: readonly unknown[]): SafeHtml | '' {
  if (items.length === 0) return '';
  return html`<h4>${heading} <span class="count">(${formatNumber(items.length)})</span></h4>
<ul class="site-items">${items.map((item) => html`<li class="site-item"><p class="site-item-head">${findingLine(checkId, item)}</p></li>`)}</ul>`;
}

function issueEntry(issue: IssueDiff): SafeHtml {
  const importance = issue.importance === 'high' || issue.importance === 'medium' ? issue.importance : 'low';
  const counts = [
    `${formatNumber(issue.new.length)} new`,
    `${formatNumber(issue.fixed.length)} fixed`,
    `${formatNumber(issue.persisting)} persisting`,
    ...(issue.not_comparable > 0 ? [`${formatNumber(issue.not_comparable)} not comparable`] : []),
  ];
  return html`<li class="check site-issue${issue.new.length > 0 ? ' check--failed' : ''}" id="compare-${issue.id}">
  <div class="check-header">
    <p class="check-badges"><span class="importance importance--${importance}">${IMPORTANCE_NAMES[importance]} importance</span> <code>${issue.id}</code></p>
    <h3 class="check-title">${TITLES.get(issue.id) ?? issue.id}</h3>
    <p class="category-counts">${counts.join(', ')}</p>
  </div>
  ${findingList(issue.id, 'New', issue.new)}
  ${findingList(issue.id, 'Fixed', issue.fixed)}
</li>`;
}

function issuesSection(diff: CrawlDiff): SafeHtml {
  return html`<section class="site-issues compare-group" id="compare-issues" aria-labelledby="compare-issues-heading">
  <h2 id="compare-issues-heading">Site issues</h2>
  ${diff.issues.length === 0
    ? html`<p class="none">No site check found anything in either crawl.</p>`
    : html`<p class="muted">A finding is fixed when the later crawl no longer has it and visited every page it concerned; when it did not visit them, the finding is not comparable.</p>
  <ol class="checks">${diff.issues.map(issueEntry)}</ol>`}
</section>`;
}

function status(code: number | null): SafeHtml {
  return code === null
    ? html`<span class="http-status http-status--failed">failed</span>`
    : html`<span class="http-status http-status--${Math.floor(code / 100)}xx">${code}</span>`;
}

function pagesSection(diff: CrawlDiff): SafeHtml {
  const { added, removed, status_changed: changed } = diff.pages;
  return html`<section class="compare-group" id="compare-pages" aria-labelledby="compare-pages-heading">
  <h2 id="compare-pages-heading">Pages</h2>
  <p>${plural(added, 'URL')} visited by ${crawlName(diff.to)} only, ${plural(removed, 'URL')} by ${crawlName(diff.from)} only, ${plural(changed.length, 'URL')} answering another status${changed.length >= MAX_LISTED ? ` (the first ${MAX_LISTED} by URL)` : ''}.</p>
  ${changed.length === 0
    ? ''
    : html`<div class="table-wrap"><table class="list-table compare-table">
  <caption class="visually-hidden">URLs answering another status</caption>
  <thead><tr><th scope="col">Page</th><th scope="col">${crawlName(diff.from)}</th><th scope="col">${crawlName(diff.to)}</th></tr></thead>
  <tbody>${changed.map((change) => html`<tr>
    <td data-label="Page">${pageLink(change.url)}</td>
    <td data-label="${crawlName(diff.from)}">${status(change.from)}</td>
    <td data-label="${crawlName(diff.to)}">${status(change.to)}</td>
  </tr>`)}</tbody>
</table></div>`}
</section>`;
}

function choiceLabel(crawl: Crawl): string {
  const score = crawl.score === null || crawl.result === null ? 'no score' : `${crawl.score} (${VERDICT_NAMES[crawl.result]})`;
  const ended = (crawl.finished_at ?? crawl.created_at).slice(0, 16).replace('T', ' ');
  return `#${crawl.id} · ${ended} UTC · ${score}`;
}

function compareForm({ crawl, choices, diff, error, from }: CrawlComparePageOptions): SafeHtml | '' {
  if (choices.length === 0) return '';
  const selected = diff?.from.id ?? from;
  return html`<section class="panel"><form method="get" action="/dashboard/crawls/${crawl.id}/compare" class="compare-form" aria-labelledby="compare-form-heading">
  <h3 id="compare-form-heading">Compare with another crawl of this URL</h3>
  ${error ? html`<p class="form-error" id="compare-error" role="alert">${error}</p>` : ''}
  <div class="field">
    <label for="compare-from">Crawl to compare with</label>
    <select id="compare-from" name="from"${error ? html` aria-invalid="true" aria-describedby="compare-error"` : ''}>${choices.map((choice) => selectOption(choice.id, choiceLabel(choice), choice.id === selected))}</select>
  </div>
  <div class="form-actions"><button type="submit" class="button">Compare</button></div>
</form></section>`;
}

export function crawlComparePage(options: CrawlComparePageOptions): SafeHtml {
  const { nav, crawl, diff, notice } = options;
  return layout({
    title: diff
      ? `Crawl #${diff.from.id} and crawl #${diff.to.id} of ${shortUrl(crawl.url)} · pagegrade`
      : `Compare crawls of ${shortUrl(crawl.url)} · pagegrade`,
    description: `What changed between two crawls of ${crawl.url}.`,
    nav,
    main: html`<article class="crawl compare">
<header class="report-header">
  <p class="eyebrow">Comparing crawls</p>
  <h1 class="report-url">${pageLink(crawl.url)}</h1>
  <p class="report-meta"><a href="/dashboard/crawls/${crawl.id}">Back to crawl #${crawl.id}</a></p>
</header>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${diff ? html`${summary(diff)}${issuesSection(diff)}${pagesSection(diff)}` : ''}
${compareForm(options)}
</article>`,
  });
}
