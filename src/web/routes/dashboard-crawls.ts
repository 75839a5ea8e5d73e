// /dashboard/crawls: the signed-in account's site audits through the same crawl service and schemas as
// the API: list, start (a form), watch one (its progress, site score, issues and pages), download its
// pages and issues as CSV, and cancel or delete one after a confirmation page.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { CrawlIdParams, CrawlListQuery, CrawlPageListQuery } from '../../schemas/crawls.ts';
import { oneOf } from '../../schemas/common.ts';
import { parseId } from '../../schemas/parse-id.ts';
import { validationMessages } from '../../schemas/validation-messages.ts';
import { QueueUnavailableError, ValidationError } from '../../services/errors.ts';
import { CRAWL_LIMITS } from '../../services/crawl.service.ts';
import { csvStream, sendCsv } from '../../csv/csv.ts';
import { CRAWL_ISSUE_CSV_COLUMNS, CRAWL_PAGE_CSV_COLUMNS, crawlIssueCsvRows } from '../../csv/crawl-columns.ts';
import { csrfToken } from '../csrf.ts';
import { crawlRefusal } from '../errors.ts';
import { sendPage } from '../render.ts';
import { dashboardNav, requireSignIn, signedInAccount } from '../session.ts';
import { confirmDeletePage } from '../views/confirm-delete.ts';
import { crawlPage } from '../views/crawl-page.ts';
import { crawlInProgress } from '../views/crawl-state.ts';
import { crawlsListPage } from '../views/crawls-list.ts';
import { shortUrl } from '../views/format.ts';
import type { FieldErrors } from '../views/form-parts.ts';
import { DEFAULT_CRAWL_FORM_SETTINGS } from '../views/crawl-form-settings.ts';
import { newCrawlPage, type NewCrawlValues } from '../views/new-crawl.ts';
import { dropEmptyQueryValues, listWindow, noticeFrom } from './list-query.ts';
import { dashboardCrawlCompareRoutes } from './dashboard-crawl-compare.ts';

const CrawlsPageQuery = Type.Object({ ...CrawlListQuery.properties, notice: Type.Optional(Type.String({ maxLength: 40 })) });
/** The pages list's filters, sort and paging, as the API's (format aside: the CSV has its own path). */
const { format: _format, ...pageListProperties } = CrawlPageListQuery.properties;
const CrawlPageQuery = Type.Object(pageListProperties);
const NewCrawlQuery = Type.Object({ url: Type.Optional(Type.String({ maxLength: 2048 })) });
/**
 * The form: the API's fields, except that sitemap is a checkbox, so its absence means 0 (the API's
 * default is 1); render likewise, offered when the server has a browser.
 */
const longText = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const CrawlFormBody = Type.Object({
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  max_pages: Type.Optional(Type.Integer()),
  max_depth: Type.Optional(Type.Integer()),
  sitemap: Type.Optional(oneOf([0, 1] as const)),
  privacy: Type.Optional(oneOf([0, 1] as const)),
  render: Type.Optional(oneOf([0, 1] as const)),
  external: Type.Optional(oneOf([0, 1] as const)),
  // The service checks each list's entries; these only bound what a form may send.
  include: longText(12_000),
  exclude: longText(12_000),
  strip_params: longText(6_000),
  user_agent: longText(40),
  headers: longText(45_000),
  urls: longText(20_000_000),
  schedule: longText(200),
  lab: Type.Optional(oneOf([0, 1] as const)),
  lab_pages: Type.Optional(Type.Integer()),
  // The service names the allowed profiles beside the field.
  lab_profile: longText(40),
});
/** A text field left empty: not given. */
const given = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value);

const LIST_NOTICES = { 'crawl-deleted': 'The crawl was deleted. The reports it made stay in their project.' };
const { maxDepth: MAX_DEPTH_LIMIT, defaultMaxPages: DEFAULT_MAX_PAGES, defaultMaxDepth: DEFAULT_MAX_DEPTH } = CRAWL_LIMITS;

function textValue(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** A number field left empty means its default, as when the API is sent no value. */
async function dropEmptyNumbers(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | undefined;
  if (body === null || typeof body !== 'object') return;
  for (const field of ['max_pages', 'max_depth', 'lab_pages']) if (body[field] === '') delete body[field];
}

export const dashboardCrawlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { crawls, lists } = app.services;
  const maxPagesLimit = app.config.crawlMaxPages;
  const signedIn = { preHandler: requireSignIn };
  const signedInForm = { preHandler: [requireSignIn, app.csrfProtection] };

  app.get(
    '/dashboard/crawls',
    { schema: { hide: true, querystring: CrawlsPageQuery }, preValidation: dropEmptyQueryValues, ...signedIn },
    async (request, reply) => {
      const q = request.query;
      const filters = { project: q.project, state: q.state, sort_by: q.sort_by ?? 'id', sort: q.sort ?? 'desc', per_page: q.per_page ?? 100 };
      const page = await lists.crawls(signedInAccount(request).organization_id, { project: filters.project, state: filters.state, ...listWindow(filters, q.page) });
      return sendPage(reply, 200, crawlsListPage({
        nav: dashboardNav(request, reply, 'crawls'),
        page,
        filters,
        notice: noticeFrom(LIST_NOTICES, q.notice),
      }));
    },
  );

  app.get(
    '/dashboard/crawls/new',
    { schema: { hide: true, querystring: NewCrawlQuery }, ...signedIn },
    async (request, reply) =>
      sendPage(reply, 200, newCrawlPage({
        nav: dashboardNav(request, reply, 'crawls'),
        csrfToken: csrfToken(reply),
        values: {
          url: request.query.url ?? '',
          max_pages: String(Math.min(DEFAULT_MAX_PAGES, maxPagesLimit)),
          max_depth: String(DEFAULT_MAX_DEPTH),
          sitemap: true,
          privacy: 0,
          render: false,
          ...DEFAULT_CRAWL_FORM_SETTINGS,
        },
        errors: {},
        maxPagesLimit,
        maxDepthLimit: MAX_DEPTH_LIMIT,
        renderingAvailable: app.services.rendering.pdf !== null,
      })),
  );

  app.post(
    '/dashboard/crawls',
    { schema: { hide: true, body: CrawlFormBody }, attachValidation: true, preValidation: dropEmptyNumbers, ...signedInForm },
    async (request, reply) => {
      const body = request.body as Partial<Record<keyof typeof CrawlFormBody.properties, unknown>> | undefined;
      const values: NewCrawlValues = {
        url: textValue(body?.url),
        max_pages: textValue(body?.max_pages),
        max_depth: textValue(body?.max_depth),
        sitemap: Number(body?.sitemap) === 1,
        privacy: Number(body?.privacy) === 1 ? 1 : 0,
        render: Number(body?.render) === 1,
        external: Number(body?.external) === 1,
        include: textValue(body?.include),
        exclude: textValue(body?.exclude),
        strip_params: textValue(body?.strip_params),
        user_agent: textValue(body?.user_agent) || 'default',
        urls: textValue(body?.urls),
        schedule: textValue(body?.schedule) || 'off',
        lab: Number(body?.lab) === 1,
        lab_pages: textValue(body?.lab_pages),
        lab_profile: textValue(body?.lab_profile) || 'mobile',
      };
      const showForm = (errors: FieldErrors, status = 422) =>
        sendPage(reply, status, newCrawlPage({
          nav: dashboardNav(request, reply, 'crawls'),
          csrfToken: csrfToken(reply),
          values,
          errors,
          maxPagesLimit,
          maxDepthLimit: MAX_DEPTH_LIMIT,
          renderingAvailable: app.services.rendering.pdf !== null,
        }));
      if (request.validationError?.validation) return showForm(validationMessages(request.validationError.validation));
      try {
        const form = request.body;
        const crawl = await crawls.start(signedInAccount(request).organization_id, {
          url: given(form.url),
          maxPages: form.max_pages,
          maxDepth: form.max_depth,
          sitemap: form.sitemap === 1,
          privacy: form.privacy ?? 0,
          render: form.render === 1,
          external: form.external === 1,
          include: given(form.include),
          exclude: given(form.exclude),
          stripParams: given(form.strip_params),
          userAgent: given(form.user_agent),
          headers: given(form.headers),
          urls: given(form.urls),
          schedule: given(form.schedule),
          // Sent only beside the checkbox: the form always carries the pages and the profile.
          ...(form.lab === 1 ? { lab: true, labPages: form.lab_pages, labProfile: given(form.lab_profile) } : {}),
        });
        return reply.redirect(`/dashboard/crawls/${crawl.id}`, 303);
      } catch (error) {
        if (error instanceof ValidationError) return showForm({ [error.field]: [error.message] });
        const refused = crawlRefusal(reply, error);
        if (refused) return showForm({ crawl: [refused.message] }, refused.status);
        if (error instanceof QueueUnavailableError) {
          return showForm({ crawl: ['The background queue is not available right now, so the crawl could not start; try again shortly.'] }, 503);
        }
        throw error;
      }
    },
  );

  app.get(
    '/dashboard/crawls/:id',
    { schema: { hide: true, params: CrawlIdParams, querystring: CrawlPageQuery }, preValidation: dropEmptyQueryValues, ...signedIn },
    async (request, reply) => {
      const accountId = signedInAccount(request).organization_id;
      const id = parseId(request.params.id);
      const q = request.query;
      // The defaults (visited, internal) stay out of the links the page makes, as the others' do.
      const state = q.state === 'visited' ? undefined : q.state;
      const scope = q.scope === 'internal' ? undefined : q.scope;
      const filters = { state, scope, status: q.status, result: q.result, sort_by: q.sort_by ?? 'url', sort: q.sort ?? 'asc', per_page: q.per_page ?? 100 };
      const { crawl, pages, issues, bounds } = await crawls.overview(accountId, id, {
        state: filters.state,
        scope: filters.scope,
        status: filters.status,
        result: filters.result,
        ...listWindow(filters, q.page),
      });
      return sendPage(reply, 200, crawlPage({ nav: dashboardNav(request, reply, 'crawls'), crawl, issues, bounds, pages, filters }));
    },
  );

  // The page table's Download CSV: every page as filtered and sorted (page and per_page ignored), the
  // same file as the API's format=csv.
  app.get(
    '/dashboard/crawls/:id/pages.csv',
    { schema: { hide: true, params: CrawlIdParams, querystring: CrawlPageQuery }, preValidation: dropEmptyQueryValues, ...signedIn },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const q = request.query;
      const rows = lists.crawlPageRows(signedInAccount(request).organization_id, id, {
        state: q.state,
        scope: q.scope,
        status: q.status,
        result: q.result,
        sortBy: q.sort_by ?? 'url',
        sort: q.sort ?? 'asc',
      });
      return sendCsv(reply, `crawl-${id}-pages.csv`, await csvStream(CRAWL_PAGE_CSV_COLUMNS, rows));
    },
  );

  app.get(
    '/dashboard/crawls/:id/issues.csv',
    { schema: { hide: true, params: CrawlIdParams }, ...signedIn },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const issues = await crawls.issues(signedInAccount(request).organization_id, id);
      return sendCsv(reply, `crawl-${id}-issues.csv`, await csvStream(CRAWL_ISSUE_CSV_COLUMNS, crawlIssueCsvRows(issues)));
    },
  );

  app.get(
    '/dashboard/crawls/:id/delete',
    { schema: { hide: true, params: CrawlIdParams }, ...signedIn },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const crawl = await crawls.show(signedInAccount(request).organization_id, id);
      const running = crawlInProgress(crawl);
      return sendPage(reply, 200, confirmDeletePage({
        nav: dashboardNav(request, reply, 'crawls'),
        csrfToken: csrfToken(reply),
        heading: running ? `Cancel and delete crawl #${id}?` : `Delete crawl #${id}?`,
        consequence: `${running ? `The crawl of ${shortUrl(crawl.url, 200)} stops, and its` : `The crawl of ${shortUrl(crawl.url, 200)}, its`} page list and its site issues will be gone. The reports it made stay in their project.`,
        action: `/dashboard/crawls/${id}/delete`,
        cancelHref: `/dashboard/crawls/${id}`,
        buttonLabel: running ? 'Cancel and delete the crawl' : 'Delete the crawl',
      }));
    },
  );

  app.post(
    '/dashboard/crawls/:id/delete',
    { schema: { hide: true, params: CrawlIdParams }, ...signedInForm },
    async (request, reply) => {
      await crawls.remove(signedInAccount(request).organization_id, parseId(request.params.id));
      return reply.redirect('/dashboard/crawls?notice=crawl-deleted', 303);
    },
  );

  await app.register(dashboardCrawlCompareRoutes);
};
