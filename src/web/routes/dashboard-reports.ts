// /dashboard/reports: the signed-in account's reports through the same report service and request
// schemas as the API: list, create, change privacy, analyse again, delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateReportBody, ReportIdParams, ReportListQuery, UpdateReportBody, reportListFilters } from '../../schemas/reports.ts';
import { parseId } from '../../schemas/parse-id.ts';
import { validationMessages } from '../../schemas/validation-messages.ts';
import { AnalysisInProgressError, ValidationError } from '../../services/errors.ts';
import type { Privacy } from '../../services/types.ts';
import { csvStream, sendCsv } from '../../csv/csv.ts';
import { REPORT_CSV_COLUMNS } from '../../csv/list-columns.ts';
import { csrfToken } from '../csrf.ts';
import { analysisRefusal } from '../errors.ts';
import { sendPage } from '../render.ts';
import { dashboardNav, requireSignIn, signedInAccount } from '../session.ts';
import { confirmDeletePage } from '../views/confirm-delete.ts';
import { shortUrl } from '../views/format.ts';
import type { FieldErrors } from '../views/form-parts.ts';
import { manageReportPage, type ManageReportOptions } from '../views/manage-report.ts';
import { newReportPage } from '../views/new-report.ts';
import { reportsListPage } from '../views/reports-list.ts';
import { dropEmptyQueryValues, noticeFrom } from './list-query.ts';

const ReportsPageQuery = Type.Object({ ...ReportListQuery.properties, notice: Type.Optional(Type.String({ maxLength: 40 })) });
const ManagePageQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });

const LIST_NOTICES = { 'report-deleted': 'The report was deleted.' };
const MANAGE_NOTICES = { 'privacy-saved': 'Privacy saved.', 'schedule-saved': 'Schedule saved.' };
/** The schedule form: a choice, and the cron expression when the choice is "cron". */
const ScheduleBody = Type.Object({
  schedule: Type.String({ maxLength: 20 }),
  cron: Type.Optional(Type.String({ maxLength: 200 })),
});
/** The project filter offers the first names alphabetically; the API allows 100 a page. */
const PROJECT_CHOICES = 100;

/** A form value the browser may have sent as anything: what to show back in the form. */
function privacyValue(value: unknown): Privacy {
  const number = Number(value);
  return number === 1 || number === 2 ? number : 0;
}

function textValue(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function errorsOf(request: FastifyRequest, error: unknown): FieldErrors | null {
  if (request.validationError?.validation) return validationMessages(request.validationError.validation);
  if (error instanceof ValidationError) return { [error.field]: [error.message] };
  return null;
}

function shareUrl(request: FastifyRequest, id: number): string {
  return `${request.protocol}://${request.host}/reports/${id}`;
}

export const dashboardReportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { reports, lists } = app.services;
  const signedIn = { preHandler: requireSignIn };
  const signedInForm = { preHandler: [requireSignIn, app.csrfProtection] };

  async function renderManage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    id: number,
    extra: Pick<ManageReportOptions, 'privacy' | 'regenerateError' | 'schedule' | 'notice'> = {},
  ) {
    const report = await reports.show(signedInAccount(request).organization_id, id);
    return sendPage(reply, status, manageReportPage({
      nav: dashboardNav(request, reply, null),
      csrfToken: csrfToken(reply),
      report,
      shareUrl: shareUrl(request, id),
      ...extra,
    }));
  }

  app.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/reports', 302));

  app.get(
    '/dashboard/reports',
    { schema: { hide: true, querystring: ReportsPageQuery }, preValidation: dropEmptyQueryValues, ...signedIn },
    async (request, reply) => {
      const account = signedInAccount(request);
      const q = request.query;
      const filters = {
        search: q.search,
        project: q.project,
        result: q.result,
        state: q.state,
        sort_by: q.sort_by ?? 'id',
        sort: q.sort ?? 'desc',
        per_page: q.per_page ?? 100,
      };
      const [reportsPage, projectPage] = await Promise.all([
        lists.reports(account.organization_id, {
          search: filters.search,
          project: filters.project,
          result: filters.result,
          state: filters.state,
          sortBy: filters.sort_by,
          sort: filters.sort,
          page: q.page ?? 1,
          perPage: filters.per_page,
        }),
        lists.projects(account.organization_id, { sortBy: 'project', sort: 'asc', page: 1, perPage: PROJECT_CHOICES }),
      ]);
      // The change since each report's previous run: one query for the page's ids, no run's results.
      const previousScores = await lists.previousScores(account.organization_id, reportsPage.items.map((report) => report.id));
      return sendPage(reply, 200, reportsListPage({
        nav: dashboardNav(request, reply, 'reports'),
        page: reportsPage,
        previousScores,
        filters,
        projects: projectPage.items.map((project) => project.project),
        notice: noticeFrom(LIST_NOTICES, q.notice),
      }));
    },
  );

  // The list's Download CSV: every report of the list as filtered and sorted (page and per_page ignored),
  // the same file as the API's format=csv.
  app.get(
    '/dashboard/reports.csv',
    { schema: { hide: true, querystring: ReportListQuery }, preValidation: dropEmptyQueryValues, ...signedIn },
    async (request, reply) => {
      const rows = lists.reportRows(signedInAccount(request).organization_id, reportListFilters(request.query));
      return sendCsv(reply, 'reports.csv', await csvStream(REPORT_CSV_COLUMNS, rows));
    },
  );

  app.get('/dashboard/reports/new', { schema: { hide: true }, ...signedIn }, async (request, reply) =>
    sendPage(reply, 200, newReportPage({
      nav: dashboardNav(request, reply, 'new-report'),
      csrfToken: csrfToken(reply),
      values: { url: '', privacy: 0, background: false, render: false },
      errors: {},
      renderingAvailable: app.services.rendering.pdf !== null,
    })),
  );

  app.post(
    '/dashboard/reports',
    { schema: { hide: true, body: CreateReportBody }, attachValidation: true, ...signedInForm },
    async (request, reply) => {
      const body = request.body;
      const showForm = (errors: FieldErrors, status = 422) =>
        sendPage(reply, status, newReportPage({
          nav: dashboardNav(request, reply, 'new-report'),
          csrfToken: csrfToken(reply),
          // The password is never sent back into the page.
          values: { url: textValue(body?.url), privacy: privacyValue(body?.privacy), background: Number(body?.async) === 1, render: Number(body?.render) === 1 },
          errors,
          renderingAvailable: app.services.rendering.pdf !== null,
        }));
      const invalid = errorsOf(request, null);
      if (invalid) return showForm(invalid);
      try {
        const report = await reports.create(signedInAccount(request).organization_id, {
          url: body.url,
          privacy: body.privacy ?? 0,
          password: body.password,
          background: body.async === 1,
          render: body.render === 1,
        });
        return reply.redirect(`/reports/${report.id}`, 303);
      } catch (error) {
        const refused = analysisRefusal(reply, error);
        if (refused) return showForm({ analysis: [refused.message] }, refused.status);
        const errors = errorsOf(request, error);
        if (errors) return showForm(errors);
        throw error;
      }
    },
  );

  app.get(
    '/dashboard/reports/:id',
    { schema: { hide: true, params: ReportIdParams, querystring: ManagePageQuery }, ...signedIn },
    async (request, reply) =>
      renderManage(request, reply, 200, parseId(request.params.id), { notice: noticeFrom(MANAGE_NOTICES, request.query.notice) }),
  );

  app.post(
    '/dashboard/reports/:id/privacy',
    { schema: { hide: true, params: ReportIdParams, body: UpdateReportBody }, attachValidation: true, ...signedInForm },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const selected = privacyValue(request.body?.privacy);
      const invalid = errorsOf(request, null);
      if (invalid) return renderManage(request, reply, 422, id, { privacy: { selected, errors: invalid } });
      try {
        await reports.update(signedInAccount(request).organization_id, id, {
          privacy: request.body.privacy,
          password: request.body.password,
          regenerate: false,
        });
      } catch (error) {
        const errors = errorsOf(request, error);
        if (errors) return renderManage(request, reply, 422, id, { privacy: { selected, errors } });
        throw error;
      }
      return reply.redirect(`/dashboard/reports/${id}?notice=privacy-saved`, 303);
    },
  );

  app.post(
    '/dashboard/reports/:id/schedule',
    { schema: { hide: true, params: ReportIdParams, body: ScheduleBody }, attachValidation: true, ...signedInForm },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const choice = { selected: textValue(request.body?.schedule), cron: textValue(request.body?.cron) };
      const invalid = errorsOf(request, null);
      if (invalid) return renderManage(request, reply, 422, id, { schedule: { ...choice, errors: invalid } });
      const schedule = choice.selected === 'cron' ? choice.cron : choice.selected;
      try {
        await reports.update(signedInAccount(request).organization_id, id, { schedule, regenerate: false });
      } catch (error) {
        const errors = errorsOf(request, error);
        if (errors) return renderManage(request, reply, 422, id, { schedule: { ...choice, errors } });
        throw error;
      }
      return reply.redirect(`/dashboard/reports/${id}?notice=schedule-saved`, 303);
    },
  );

  app.post(
    '/dashboard/reports/:id/regenerate',
    { schema: { hide: true, params: ReportIdParams }, ...signedInForm },
    async (request, reply) => {
      const id = parseId(request.params.id);
      try {
        await reports.update(signedInAccount(request).organization_id, id, { regenerate: true });
      } catch (error) {
        const refused = analysisRefusal(reply, error);
        if (refused) return renderManage(request, reply, refused.status, id, { regenerateError: refused.message });
        if (error instanceof ValidationError) {
          return renderManage(request, reply, 422, id, { regenerateError: `${error.message} The report is unchanged.` });
        }
        if (error instanceof AnalysisInProgressError) return renderManage(request, reply, 409, id, { regenerateError: error.message });
        throw error;
      }
      return reply.redirect(`/reports/${id}`, 303);
    },
  );

  app.get(
    '/dashboard/reports/:id/delete',
    { schema: { hide: true, params: ReportIdParams }, ...signedIn },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const report = await reports.show(signedInAccount(request).organization_id, id);
      return sendPage(reply, 200, confirmDeletePage({
        nav: dashboardNav(request, reply, null),
        csrfToken: csrfToken(reply),
        heading: `Delete report #${id}?`,
        consequence: `The report for ${shortUrl(report.url, 200)} and its link will be gone.`,
        action: `/dashboard/reports/${id}/delete`,
        cancelHref: `/dashboard/reports/${id}`,
        buttonLabel: 'Delete the report',
      }));
    },
  );

  app.post(
    '/dashboard/reports/:id/delete',
    { schema: { hide: true, params: ReportIdParams }, ...signedInForm },
    async (request, reply) => {
      await reports.remove(signedInAccount(request).organization_id, parseId(request.params.id));
      return reply.redirect('/dashboard/reports?notice=report-deleted', 303);
    },
  );
};
