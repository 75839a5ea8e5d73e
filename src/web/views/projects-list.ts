// The dashboard's projects: one per host with reports, with the API's search, sort and paging.
import type { Page, Project } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatNumber, timeElement } from './format.ts';
import { layout, type HeaderNav } from './layout.ts';
import { filterActions, listControls } from './list-controls.ts';
import { listHref, pagination } from './pagination.ts';

interface ProjectFilters {
  search?: string;
  sort_by: 'created_at' | 'project';
  sort: 'asc' | 'desc';
  per_page: number;
}

export interface ProjectsListOptions {
  nav: HeaderNav;
  page: Page<Project>;
  filters: ProjectFilters;
  notice?: string;
}

const SORT_KEYS: readonly [ProjectFilters['sort_by'], string][] = [
  ['created_at', 'Date created'],
  ['project', 'Name'],
];

/** How many of a project's reports are good, decent and bad, as chips. */
export function resultCountChips(counts: Project['result_counts']): SafeHtml {
  return html`<span class="verdict-chip verdict-chip--good">${formatNumber(counts.good)} good</span>
    <span class="verdict-chip verdict-chip--decent">${formatNumber(counts.decent)} decent</span>
    <span class="verdict-chip verdict-chip--bad">${formatNumber(counts.bad)} bad</span>`;
}

function projectRow(project: Project): SafeHtml {
  const encoded = encodeURIComponent(project.project);
  return html`<tr>
  <td data-label="Project"><a href="/dashboard/projects/${encoded}">${project.project}</a></td>
  <td data-label="Reports"><a href="${listHref('/dashboard/reports', { project: project.project })}">${formatNumber(project.reports_count)}<span class="visually-hidden"> reports of ${project.project}</span></a></td>
  <td data-label="Results">${resultCountChips(project.result_counts)}</td>
  <td data-label="Created">${timeElement(project.created_at)}</td>
  <td data-label="Actions" class="row-actions"><a class="danger-link" href="/dashboard/projects/${encoded}/delete">Delete<span class="visually-hidden"> ${project.project}</span></a></td>
</tr>`;
}

export function projectsListPage({ nav, page, filters, notice }: ProjectsListOptions): SafeHtml {
  // Every project of the list as it is searched and sorted, not only this page.
  const { per_page: _perPage, ...exported } = filters;
  return layout({
    title: 'Projects · pagegrade',
    description: 'Your projects: one per site you have reports for.',
    nav,
    main: html`<div class="page-heading">
  <h1>Projects</h1>
  <a class="button" href="${listHref('/dashboard/projects.csv', exported)}" download>Download CSV</a>
</div>
<p>A project is a site (a host) you have reports for. It appears with its first report and goes away with its last.</p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<form method="get" action="/dashboard/projects" class="filters" role="search" aria-label="Filter projects">
  <div class="field">
    <label for="search">Name contains</label>
    <input id="search" name="search" type="search" maxlength="2048" value="${filters.search ?? ''}">
  </div>
  ${listControls(SORT_KEYS, filters)}
  ${filterActions('/dashboard/projects')}
</form>
${page.total === 0
  ? html`<p class="empty">${filters.search ? 'No project matches.' : 'No projects yet: a project appears with its first report.'}</p>`
  : html`<div class="table-wrap"><table class="list-table">
  <caption class="visually-hidden">Projects</caption>
  <thead><tr><th scope="col">Project</th><th scope="col">Reports</th><th scope="col">Results</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
  <tbody>${page.items.map(projectRow)}</tbody>
</table></div>
${pagination('/dashboard/projects', { ...filters }, page, 'projects')}`}`,
  });
}
