// /dashboard/projects: the signed-in account's projects through the same project service and query
// schema as the API, one project's page (its reports in numbers and its latest crawl), and deleting one
// (with all of its reports) after a confirmation page.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ProjectListQuery, ProjectParams } from '../../schemas/projects.ts';
import { NotFoundError } from '../../services/errors.ts';
import { csvStream, sendCsv } from '../../csv/csv.ts';
import { PROJECT_CSV_COLUMNS } from '../../csv/list-columns.ts';
import { csrfToken } from '../csrf.ts';
import { sendPage } from '../render.ts';
import { dashboardNav, requireSignIn, signedInAccount } from '../session.ts';
import { confirmDeletePage } from '../views/confirm-delete.ts';
import { plural } from '../views/format.ts';
import { projectPage } from '../views/project-page.ts';
import { projectsListPage } from '../views/projects-list.ts';
import { dropEmptyQueryValues, listWindow, noticeFrom } from './list-query.ts';

const ProjectsPageQuery = Type.Object({ ...ProjectListQuery.properties, notice: Type.Optional(Type.String({ maxLength: 40 })) });
const NOTICES = { 'project-deleted': 'The project and its reports were deleted.' };

export const dashboardProjectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { projects, lists, crawls } = app.services;

  app.get(
    '/dashboard/projects',
    { schema: { hide: true, querystring: ProjectsPageQuery }, preValidation: dropEmptyQueryValues, preHandler: requireSignIn },
    async (request, reply) => {
      const q = request.query;
      const filters = { search: q.search, sort_by: q.sort_by ?? 'created_at', sort: q.sort ?? 'desc', per_page: q.per_page ?? 100 };
      const page = await lists.projects(signedInAccount(request).organization_id, { search: filters.search, ...listWindow(filters, q.page) });
      return sendPage(reply, 200, projectsListPage({
        nav: dashboardNav(request, reply, 'projects'),
        page,
        filters,
        notice: noticeFrom(NOTICES, q.notice),
      }));
    },
  );

  // The list's Download CSV: every project of the list as searched and sorted, the same file as the API's.
  app.get(
    '/dashboard/projects.csv',
    { schema: { hide: true, querystring: ProjectListQuery }, preValidation: dropEmptyQueryValues, preHandler: requireSignIn },
    async (request, reply) => {
      const q = request.query;
      const rows = lists.projectRows(signedInAccount(request).organization_id, {
        search: q.search || undefined,
        sortBy: q.sort_by ?? 'created_at',
        sort: q.sort ?? 'desc',
      });
      return sendCsv(reply, 'projects.csv', await csvStream(PROJECT_CSV_COLUMNS, rows));
    },
  );

  // One project: its reports in numbers, its latest crawl and "Crawl this site". A host crawled for the
  // first time has a page before its first report is in.
  app.get(
    '/dashboard/projects/:project',
    { schema: { hide: true, params: ProjectParams }, preHandler: requireSignIn },
    async (request, reply) => {
      const accountId = signedInAccount(request).organization_id;
      const name = request.params.project;
      const [project, latestCrawl] = await Promise.all([projects.find(accountId, name), crawls.latest(accountId, name)]);
      if (!project && !latestCrawl) throw new NotFoundError();
      // The start URL to offer: the latest crawl's, else the origin of the newest report, else https.
      let crawlUrl = latestCrawl?.url ?? `https://${name}/`;
      if (!latestCrawl) {
        const newest = await lists.reports(accountId, { project: name, sortBy: 'id', sort: 'desc', page: 1, perPage: 1 });
        if (newest.items[0]) crawlUrl = `${new URL(newest.items[0].url).origin}/`;
      }
      return sendPage(reply, 200, projectPage({ nav: dashboardNav(request, reply, 'projects'), name, project, latestCrawl, crawlUrl }));
    },
  );

  app.get(
    '/dashboard/projects/:project/delete',
    { schema: { hide: true, params: ProjectParams }, preHandler: requireSignIn },
    async (request, reply) => {
      const name = request.params.project;
      const project = await projects.find(signedInAccount(request).organization_id, name);
      if (!project) throw new NotFoundError();
      const total = project.reports_count;
      const path = `/dashboard/projects/${encodeURIComponent(name)}/delete`;
      return sendPage(reply, 200, confirmDeletePage({
        nav: dashboardNav(request, reply, 'projects'),
        csrfToken: csrfToken(reply),
        heading: `Delete the project ${name}?`,
        consequence: `Its ${plural(total, 'report')} will be deleted with it, and their links will stop working.`,
        action: path,
        cancelHref: '/dashboard/projects',
        buttonLabel: 'Delete the project and its reports',
      }));
    },
  );

  app.post(
    '/dashboard/projects/:project/delete',
    { schema: { hide: true, params: ProjectParams }, preHandler: [requireSignIn, app.csrfProtection] },
    async (request, reply) => {
      await projects.remove(signedInAccount(request).organization_id, request.params.project);
      return reply.redirect('/dashboard/projects?notice=project-deleted', 303);
    },
  );
};
