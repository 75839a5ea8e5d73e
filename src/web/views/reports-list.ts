// The dashboard's list of reports: the API's filters, sort and paging as a form, and a table that
// becomes one card per report on a narrow screen. A long URL is cut with an ellipsis by the stylesheet
// (never broken mid-word); its title attribute holds it whole.
import type { Verdict } from '../../analysis/types.ts';
import type { Page, ReportState, ReportSummary } from '../../services/types.ts';
import { REPORT_STATES } from '../../db/tables/report.table.ts';
import { html, type SafeHtml } from '../html.ts';
import { PRIVACY_NAMES, shortUrl, timeElement } from './format.ts';
import { issueCountsInline } from './issue-counts.ts';
import { layout, type HeaderNav } from './layout.ts';
import { ANALYSIS_REFRESH_SECONDS, STATE_NAMES, analysisInProgress, scoreChip } from './analysis-state.ts';
import { filterActions, listControls, resultSelect, selectOption, sortedCaption } from './list-controls.ts';
import { listHref, pagination } from './pagination.ts';
import { scheduleText } from './schedule-form.ts';
import { scoreDelta } from './score-delta.ts';

interface ReportFilters {
  search?: string;
  project?: string;
  result?: Verdict;
  state?: ReportState;
  sort_by: 'id' | 'generated_at' | 'url' | 'result' | 'score';
  sort: 'asc' | 'desc';
  per_page: number;
}

export interface ReportsListOptions {
  nav: HeaderNav;
  page: Page<ReportSummary>;
  /** The score of the run before each report's latest, by report id (absent: no previous run). */
  previousScores: ReadonlyMap<number, number>;
  filters: ReportFilters;
  /** Project names for the project filter. */
  projects: readonly string[];
  notice?: string;
}

const SORT_KEYS: readonly [ReportFilters['sort_by'], string][] = [
  ['id', 'Date created'],
  ['generated_at', 'Date generated'],
  ['url', 'URL'],
  ['result', 'Result'],
  ['score', 'Score'],
];

function filtersForm(filters: ReportFilters, projects: readonly string[]): SafeHtml {
  const projectNames = filters.project && !projects.includes(filters.project) ? [filters.project, ...projects] : projects;
  return html`<form method="get" action="/dashboard/reports" class="filters" role="search" aria-label="Filter reports">
  <div class="field">
    <label for="search">URL contains</label>
    <input id="search" name="search" type="search" maxlength="2048" value="${filters.search ?? ''}">
  </div>
  <div class="field">
    <label for="project">Project</label>
    <select id="project" name="project">
      ${selectOption('', 'All projects', !filters.project)}
      ${projectNames.map((name) => selectOption(name, name, name === filters.project))}
    </select>
  </div>
  ${resultSelect(filters.result)}
  <div class="field">
    <label for="state">Analysis</label>
    <select id="state" name="state">
      ${selectOption('', 'Any state', !filters.state)}
      ${REPORT_STATES.map((state) => selectOption(state, STATE_NAMES[state], state === filters.state))}
    </select>
  </div>
  ${listControls(SORT_KEYS, filters)}
  ${filterActions('/dashboard/reports')}
</form>`;
}

function reportRow(report: ReportSummary, previousScore: number | undefined): SafeHtml {
  const { issues } = report;
  const change = previousScore === undefined || report.score === null ? null : report.score - previousScore;
  return html`<tr>
  <td data-label="Report" class="report-cell"><a class="report-link" href="/reports/${report.id}"><span class="truncate" title="${report.url}">${shortUrl(report.url, 200)}</span></a>
    <span class="muted">#${report.id} · ${report.project}</span></td>
  <td data-label="Score">${scoreChip(report)}</td>
  <td data-label="Change">${scoreDelta(change)}</td>
  <td data-label="Failed checks">${issues === null
    ? html`<span class="muted">no run yet</span>`
    : issueCountsInline(issues)}</td>
  <td data-label="Privacy">${PRIVACY_NAMES[report.privacy]}</td>
  <td data-label="Schedule">${scheduleText(report.schedule)}</td>
  <td data-label="Generated">${report.generated_at === null ? html`<span class="muted">not yet</span>` : timeElement(report.generated_at)}</td>
  <td data-label="Actions" class="row-actions"><a href="/dashboard/reports/${report.id}">Manage<span class="visually-hidden"> report #${report.id}</span></a>
    <a href="/dashboard/reports/${report.id}/delete" class="danger-link">Delete<span class="visually-hidden"> report #${report.id}</span></a></td>
</tr>`;
}

function emptyState(filtered: boolean): SafeHtml {
  return filtered
    ? html`<p class="empty">No report matches these filters. <a href="/dashboard/reports">Show all reports</a></p>`
    : html`<p class="empty">No reports yet. <a href="/dashboard/reports/new">Analyse your first page</a></p>`;
}

export function reportsListPage({ nav, page, previousScores, filters, projects, notice }: ReportsListOptions): SafeHtml {
  const query = { ...filters };
  // Every report of the list as it is filtered and sorted, not only this page.
  const { per_page: _perPage, ...exported } = filters;
  const filtered = Boolean(filters.search || filters.project || filters.result || filters.state);
  return layout({
    title: 'Reports · pagegrade',
    description: 'Your SEO reports.',
    nav,
    wide: true,
    // Reports being analysed in the background change state on their own: show them as they do.
    refreshSeconds: page.items.some(analysisInProgress) ? ANALYSIS_REFRESH_SECONDS : undefined,
    main: html`<div class="page-heading">
  <h1>Reports</h1>
  <div class="page-heading-actions">
    <a class="button" href="${listHref('/dashboard/reports.csv', exported)}" download>Download CSV</a>
    <a class="button button--primary" href="/dashboard/reports/new">New report</a>
  </div>
</div>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${filtersForm(filters, projects)}
${page.items.length === 0 && page.total === 0
  ? emptyState(filtered)
  : html`<div class="table-wrap"><table class="list-table reports-table">
  ${sortedCaption('Reports', SORT_KEYS, filters)}
  <thead><tr><th scope="col">Report</th><th scope="col">Score</th><th scope="col">Change</th><th scope="col">Failed checks</th><th scope="col">Privacy</th><th scope="col">Schedule</th><th scope="col">Generated</th><th scope="col">Actions</th></tr></thead>
  <tbody>${page.items.map((report) => reportRow(report, previousScores.get(report.id)))}</tbody>
</table></div>
${pagination('/dashboard/reports', query, page, 'reports')}`}`,
  });
}
