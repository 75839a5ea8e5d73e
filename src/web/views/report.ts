// The shareable report page. Its first screen is what a client reads: the page's title and URL, the
// score ring and verdict (and why, when the score alone would give another), a gauge per category,
// failed checks by importance and what to fix first; then, for a run with a lab audit, its Lab section
// (lab-section.ts); then the categories (failed first, then passed, then not applicable; Accessibility
// only with a lab audit, whose checks are the only ones that judge it), the page's structured data
// under the Miscellaneous checks (structured-data-section.ts), and the facts of the fetch. Its owner also reads of an earlier report of
// the same page. On paper (print.css, docs/web.md) the first screen is page 1 and each category's
// passed and not applicable checks are one table. Everything that came from the analysed page is
// escaped by the html template.
import type { CheckResult, IssueCounts, PageFacts, Verdict } from '../../analysis/types.ts';
import type { Category, CheckDefinition } from '../../checks/check.ts';
import { allChecks } from '../../checks/index.ts';
import { verdictReason } from '../../scoring/score.ts';
import type { Report, RunSummary } from '../../services/types.ts';
import { html, httpUrlOrNull, withCodeSpans, type SafeHtml } from '../html.ts';
import { clip, renderErrors, renderValue } from './check-value.ts';
import {
  CATEGORY_NAMES,
  IMPORTANCE_NAMES,
  PRIVACY_DESCRIPTIONS,
  PRIVACY_NAMES,
  formatBytes,
  formatNumber,
  shortUrl,
  timeElement,
} from './format.ts';
import { layout, type HeaderNav } from './layout.ts';
import { BUILT_IN_BRAND, type BrandView } from './brand.ts';
import { categoryGauges } from './category-gauges.ts';
import { fixFirst } from './fix-first.ts';
import { ANALYSIS_REFRESH_SECONDS, STATE_NAMES, analysisInProgress, analysisNotice } from './analysis-state.ts';
import { issueCountsList } from './issue-counts.ts';
import { scoreWithVerdict } from './score-ring.ts';
import { TRIGGER_NAMES, runName } from './run-list.ts';
import { renderedSection } from './rendered-comparison.ts';
import { labSection } from './lab-section.ts';
import { structuredDataSection } from './structured-data-section.ts';
import { csrfField } from './form-parts.ts';

export interface ReportPageOptions {
  report: Report;
  asOwner: boolean;
  signedIn: boolean;
  /** The latest run's history: score over time, changes, runs (report-history.ts). */
  history?: SafeHtml;
  /** Set on a run's page: `report` carries that run's results, and the page says which run it is. */
  run?: RunSummary & { latest: boolean };
  /** Whose report it is (white-label); pagegrade's when not given. */
  brand?: BrandView;
  /** Offers the report as a PDF (the server has a browser to print it). */
  pdfUrl?: string;
  /**
   * For its owner: the account's earlier report of the same URL, which this one duplicates. The page
   * links it and offers to analyse it again instead (its regenerate form, with this CSRF token).
   */
  duplicateOf?: { reportId: number; csrfToken: string };
}

type Status = 'failed' | 'passed' | 'not-applicable';

interface CheckRow {
  id: string;
  definition: CheckDefinition | undefined;
  result: CheckResult;
  status: Status;
}

const STATUS_ORDER: readonly Status[] = ['failed', 'passed', 'not-applicable'];
const STATUS_LABELS: Record<Status, { mark: string; label: string }> = {
  failed: { mark: '✗', label: 'Failed' },
  passed: { mark: '✓', label: 'Passed' },
  'not-applicable': { mark: '–', label: 'Not applicable' },
};
/** Categories in the order the registry lists their checks. */
const CATEGORIES: readonly Category[] = [...new Set(allChecks.map((check) => check.category))];

/**
 * The categories the report shows. Accessibility's checks apply only with a lab audit: without one
 * (a run without lab=1, or an audit that could not observe the page) the category would be 64 rules
 * that do not apply, so it is left out, gauge and all.
 */
function shownCategories(report: Report): readonly Category[] {
  return report.lab ? CATEGORIES : CATEGORIES.filter((category) => category !== 'accessibility');
}

function statusOf(result: CheckResult): Status {
  return result.passed === true ? 'passed' : result.passed === false ? 'failed' : 'not-applicable';
}

/** Results in registry order, grouped by category and status; ids the registry no longer has go last. */
function groupResults(results: Record<string, CheckResult>): Map<Category, CheckRow[]> {
  const known = new Set(allChecks.map((check) => check.id));
  const ordered: CheckRow[] = [
    ...allChecks.filter((check) => results[check.id]).map((check) => ({ id: check.id, definition: check, result: results[check.id] })),
    ...Object.keys(results).filter((id) => !known.has(id)).map((id) => ({ id, definition: undefined, result: results[id] })),
  ].map((row) => ({ ...row, status: statusOf(row.result) }));
  const groups = new Map<Category, CheckRow[]>(CATEGORIES.map((category) => [category, []]));
  for (const status of STATUS_ORDER) {
    for (const row of ordered) if (row.status === status) groups.get(row.result.category)?.push(row);
  }
  return groups;
}

function countsLine(rows: CheckRow[]): string {
  const count = (status: Status) => rows.filter((row) => row.status === status).length;
  return `${formatNumber(count('failed'))} failed · ${formatNumber(count('passed'))} passed · ${formatNumber(count('not-applicable'))} not applicable`;
}

/** A part of a check's card; `kind` names it for the print stylesheet (what it opens, what it keeps folded). */
function section(kind: 'found' | 'measured' | 'why' | 'fix', heading: string, body: SafeHtml): SafeHtml {
  return html`<div class="check-section check-section--${kind}"><h4>${heading}</h4>${body}</div>`;
}

/** The catalogue's words for the check as it stands (what failed, or what holds); its id for a check the catalogue no longer has. */
function checkTitle({ definition, status, id }: CheckRow): string {
  return definition ? (status === 'failed' ? definition.failureTitle : definition.title) : id;
}

function checkItem(row: CheckRow): SafeHtml {
  const { definition, result, status } = row;
  const title = checkTitle(row);
  const why = definition ? section('why', 'Why it matters', html`<p>${withCodeSpans(definition.description)}</p>`) : '';
  const fix = definition ? section('fix', 'How to fix', html`<p>${withCodeSpans(definition.howToFix)}</p>`) : '';
  const labels = definition?.labels;
  const measured = result.value === null || result.value === undefined ? '' : section('measured', 'Measured', renderValue(result.value, labels));
  const { mark, label } = STATUS_LABELS[status];
  let body: SafeHtml;
  if (status === 'failed') {
    body = html`<div class="check-columns">
  <div>${result.errors ? section('found', 'What was found', renderErrors(result.errors, labels)) : ''}${measured}</div>
  <div>${why}${fix}</div>
</div>`;
  } else if (status === 'passed') {
    body = html`<details><summary>Details<span class="visually-hidden">: ${title}</span></summary>${measured}${why}</details>`;
  } else {
    body = html`<p class="check-reason">${result.reason ?? 'This check does not apply to the page.'}</p>
<details><summary>About this check<span class="visually-hidden">: ${title}</span></summary>${measured}${why}</details>`;
  }
  return html`<li class="check check--${status}" id="check-${row.id}">
  <div class="check-header">
    <p class="check-badges"><span class="status status--${status}"><span aria-hidden="true">${mark}</span> ${label}</span>
    <span class="importance importance--${result.importance}">${IMPORTANCE_NAMES[result.importance]} importance</span></p>
    <h3 class="check-title">${title}</h3>
  </div>
  ${body}
</li>`;
}

/** A row of the paper table: a check, or (accessibility) the rules that do not apply for one reason. */
function settledRow(status: Status, check: SafeHtml | string, importance: string): SafeHtml {
  const { mark, label } = STATUS_LABELS[status];
  return html`<tr><td><span class="status status--${status}"><span aria-hidden="true">${mark}</span> ${label}</span></td><td>${check}</td><td>${importance}</td></tr>`;
}

/**
 * The accessibility rules that do not apply, on paper: most of the 64 on any page ("No element on the
 * page this rule applies to."), so a row per reason with their count, not three pages of rows (the
 * report online lists them). A reason only one rule gives is that rule's own row.
 */
function inapplicableRules(rows: CheckRow[]): SafeHtml[] {
  const byReason = new Map<string, CheckRow[]>();
  for (const row of rows) {
    const reason = row.result.reason ?? 'does not apply to the page';
    byReason.set(reason, [...(byReason.get(reason) ?? []), row]);
  }
  return [...byReason].map(([reason, group]) => {
    if (group.length === 1) return settledRow('not-applicable', html`${checkTitle(group[0])} <span class="settled-reason">(${reason})</span>`, IMPORTANCE_NAMES[group[0].result.importance]);
    return settledRow('not-applicable', html`${group.length} rules <span class="settled-reason">(${reason})</span>`, '');
  });
}

/**
 * On paper a category's passed and not applicable checks are the rows of one table rather than a card
 * each (print.css shows it and hides their cards; screens never show it): a PDF is the findings.
 */
function settledChecks(category: Category, rows: CheckRow[]): SafeHtml | '' {
  const settled = rows.filter((row) => row.status !== 'failed');
  if (settled.length === 0) return '';
  const grouped = category === 'accessibility';
  const single = grouped ? settled.filter((row) => row.status === 'passed') : settled;
  return html`<table class="settled-checks print-only">
  <caption class="visually-hidden">${CATEGORY_NAMES[category]}: checks passed or not applicable</caption>
  <thead><tr><th scope="col">Result</th><th scope="col">Check</th><th scope="col">Importance</th></tr></thead>
  <tbody>${single.map((row) => {
    const reason = row.status === 'not-applicable' ? html` <span class="settled-reason">(${row.result.reason ?? 'does not apply to the page'})</span>` : '';
    return settledRow(row.status, html`${checkTitle(row)}${reason}`, IMPORTANCE_NAMES[row.result.importance]);
  })}${grouped ? inapplicableRules(settled.filter((row) => row.status === 'not-applicable')) : ''}</tbody>
</table>`;
}

function categorySection(category: Category, rows: CheckRow[]): SafeHtml {
  return html`<section class="category" id="category-${category}" aria-labelledby="category-${category}-heading">
  <h2 id="category-${category}-heading">${CATEGORY_NAMES[category]}</h2>
  <p class="category-counts">${countsLine(rows)}</p>
  <ol class="checks">${rows.map(checkItem)}</ol>
  ${settledChecks(category, rows)}
</section>`;
}

function externalLink(url: string, text: string): SafeHtml {
  const href = httpUrlOrNull(url);
  return href ? html`<a href="${href}" rel="nofollow noopener noreferrer">${text}</a>` : html`${text}`;
}

function pageFacts(report: Report, page: PageFacts): SafeHtml {
  const redirects = page.redirects.length
    ? html`<ol class="redirect-chain">${page.redirects.map((hop) => html`<li><code>${hop.status_code}</code> ${hop.url}</li>`)}</ol>`
    : html`none`;
  const fact = (term: string, value: SafeHtml | string) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`;
  return html`<section class="page-facts" aria-labelledby="page-facts-heading">
  <h2 id="page-facts-heading">The page as fetched</h2>
  <dl class="facts">
    ${fact('URL analysed', html`<span class="url">${report.url}</span>`)}
    ${page.final_url !== report.url ? fact('Final URL', html`<span class="url">${page.final_url}</span>`) : ''}
    ${fact('HTTP status', String(page.status_code))}
    ${fact('Redirects', redirects)}
    ${fact('Size', page.bytes < 1024 ? formatBytes(page.bytes) : `${formatBytes(page.bytes)} (${formatNumber(page.bytes)} bytes)`)}
    ${fact('Load time', `${formatNumber(page.load_time_ms)} ms`)}
    ${fact('Protocol', `HTTP/${page.http_version}`)}
    ${fact('Content type', page.content_type ?? 'not sent')}
    ${fact('Character encoding', page.charset)}
  </dl>
</section>`;
}

function summary(report: AnalyzedReport): SafeHtml {
  return html`<section class="summary" aria-labelledby="summary-heading">
  <h2 id="summary-heading" class="visually-hidden">Summary</h2>
  <div class="score">
    ${scoreWithVerdict(report.score, report.result, verdictReason(report.results))}
  </div>
  <div class="summary-details">
    <h3>Score by category</h3>
    ${categoryGauges(report.results, shownCategories(report))}
    <h3>Failed checks by importance</h3>
    ${issueCountsList(report.issues, 'failed check')}
  </div>
</section>
${fixFirst(report.results)}`;
}

/** The page's own title, as the title check read it; null when it has none. */
function pageTitle(report: Report): string | null {
  const value = report.results?.title?.value;
  const title = value !== null && typeof value === 'object' && 'title' in value ? value.title : null;
  return typeof title === 'string' && title.trim() !== '' ? title : null;
}

function ownerBar(report: Report): SafeHtml {
  return html`<div class="owner-bar">
  <p><span class="privacy-badge privacy-badge--${report.privacy}">${PRIVACY_NAMES[report.privacy]}</span> ${PRIVACY_DESCRIPTIONS[report.privacy]}</p>
  <p><a class="button" href="/dashboard/reports/${report.id}">Manage this report</a></p>
</div>`;
}

/** A report with a successful run: every run field is there. */
type AnalyzedReport = Report & { result: Verdict; score: number; issues: IssueCounts; page: PageFacts; results: Record<string, CheckResult>; generated_at: string };

function hasRun(report: Report): report is AnalyzedReport {
  return report.result !== null;
}

/** The owner's note on a report of a page they already had a report of: the earlier one, and analysing it again instead. */
function duplicateNote({ reportId, csrfToken }: NonNullable<ReportPageOptions['duplicateOf']>): SafeHtml {
  return html`<section class="notice duplicate-note" role="note" aria-label="An earlier report of this page">
  <p>You already have a report of this page: <a href="/reports/${reportId}">report #${reportId}</a>.
    Rather than keep two, you can analyse the earlier one again: it keeps its link and the history of its runs.</p>
  <form method="post" action="/dashboard/reports/${reportId}/regenerate" class="duplicate-form">
    ${csrfField(csrfToken)}
    <button type="submit" class="button">Analyse the earlier report again</button>
  </form>
</section>`;
}

/** The note at the top of a run's page: which run it is, and the way back to the latest. */
function runNote(reportId: number, run: NonNullable<ReportPageOptions['run']>): SafeHtml {
  return html`<p class="notice run-note" role="note">${runName(run)} of this report, from ${timeElement(run.generated_at)} (${TRIGGER_NAMES[run.trigger]}).
  ${run.latest ? 'It is the latest run.' : html`<a href="/reports/${reportId}">See the latest run</a>`}</p>`;
}

export function reportPage({ report, asOwner, signedIn, history, run, brand = BUILT_IN_BRAND, pdfUrl, duplicateOf }: ReportPageOptions): SafeHtml {
  // A past run never changes: only the latest is refreshed while an analysis is under way.
  const refreshSeconds = analysisInProgress(report) && !run ? ANALYSIS_REFRESH_SECONDS : undefined;
  const nav: HeaderNav = { kind: signedIn ? 'signed-in' : 'signed-out' };
  // The page's title is the headline people recognise; the URL, under it, says exactly which page it is.
  const title = pageTitle(report);
  const header = (meta: SafeHtml) => html`<header class="report-header">
  <p class="eyebrow">SEO report</p>
  <h1 class="report-title">${title !== null ? clip(title, 200) : shortUrl(report.url, 200)}</h1>
  <p class="report-url">${externalLink(report.url, report.url)}</p>
  <p class="report-meta">${meta}</p>
  ${asOwner ? ownerBar(report) : ''}
  ${asOwner && duplicateOf ? duplicateNote(duplicateOf) : ''}
</header>
${run ? runNote(report.id, run) : analysisNotice(report)}`;
  if (!hasRun(report)) {
    return layout({
      title: `SEO report for ${shortUrl(report.url)} — ${STATE_NAMES[report.state].toLowerCase()} · ${brand.name}`,
      description: `SEO report for ${report.url}: no analysis has succeeded yet.`,
      nav,
      refreshSeconds,
      brand,
      main: html`<article class="report">${header(html`No analysis has succeeded yet.`)}</article>`,
    });
  }
  const groups = groupResults(report.results);
  const { issues } = report;
  return layout({
    title: `${run ? `${runName(run)} of the ` : ''}SEO report for ${shortUrl(report.url)} — ${report.score}/100 (${report.result}) · ${brand.name}`,
    description:
      `SEO report for ${report.url}: ${report.score}/100 (${report.result}), ` +
      `failed checks: ${issues.high} high, ${issues.medium} medium and ${issues.low} low importance.`,
    nav,
    refreshSeconds,
    brand,
    main: html`<article class="report">
${header(html`Generated ${timeElement(report.generated_at)}${pdfUrl ? html`<span class="pdf-link"> · <a href="${pdfUrl}" type="application/pdf">Download as PDF</a></span>` : ''}`)}
${summary(report)}
${history ?? ''}
${labSection(report.lab)}
${renderedSection(report.rendered)}
${shownCategories(report).map((category) => [
  categorySection(category, groups.get(category) ?? []),
  category === 'miscellaneous' ? structuredDataSection(report.structured_data, { linkValidationCheck: 'structured_data_valid' in report.results }) : '',
])}
${pageFacts(report, report.page)}
</article>`,
  });
}
