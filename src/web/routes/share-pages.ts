// /s/{token} and /s/{token}.pdf: what a share link opens (docs/organisations.md, "Share links"),
// to anyone who has it, without sign-in, whatever the report's privacy. A report's is its page as a
// visitor sees a public report (report.ts, no dashboard controls) and its PDF as /reports/{id}.pdf
// makes it (report-pdf.ts: the same sender, under the same limit); a crawl's is its page read-only
// (shared-crawl-page.ts). A token that is unknown, expired, revoked, or whose report or crawl is gone
// answers the Not found page, as any missing page.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PaginationQuery } from '../../schemas/common.ts';
import type { ResolvedShare } from '../../services/share-link.service.ts';
import { registerPdfLimit } from '../pdf-limit.ts';
import { sendNotFoundPage, sendPage } from '../render.ts';
import type { BrandView } from '../views/brand.ts';
import type { HeaderNav } from '../views/layout.ts';
import { reportPage } from '../views/report.ts';
import { sharedCrawlPage } from '../views/shared-crawl-page.ts';
import { dropEmptyQueryValues } from './list-query.ts';
import { reportPdfSender } from './report-pdf.ts';
import { historyOf, organizationBrand, type VisibleReport } from './report-viewer.ts';
import type { Services } from '../../services/index.ts';

export interface SharePageRouteOptions {
  /** Whose name, logo and colour the pages wear: the server's for now. */
  brand: BrandView;
}

// No length bound here: a token of any other shape is unknown (the service says so), so the Not found page.
const TokenParams = Type.Object({ token: Type.String() });
/** A shared crawl's pages list: its paging only (no filters: the page has no form). */
const SharePageQuery = Type.Object({ page: PaginationQuery.page, per_page: PaginationQuery.per_page });

/**
 * A shared report, as the report pages take it from the access service: visible, as anyone sees a
 * public report (never as its owner), its runs read as its organisation's.
 */
async function asVisible(services: Services, shared: Extract<ResolvedShare, { kind: 'report' }>, serverBrand: BrandView): Promise<VisibleReport> {
  const brand = await organizationBrand(services, shared.organizationId, serverBrand);
  return { kind: 'visible', report: shared.report, asOwner: false, ownerId: shared.organizationId, role: null, brand };
}

export const sharePageRoutes: FastifyPluginAsyncTypebox<SharePageRouteOptions> = async (app, { brand }) => {
  const { shares, crawls } = app.services;

  // Every answer here, the Not found page included: the token is a secret in the URL, so nothing keeps
  // the page, tells another site where it came from, or lists it in a search engine.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!String(reply.getHeader('cache-control') ?? '').includes('no-store')) reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex');
    return payload;
  });

  app.get(
    '/s/:token',
    { schema: { hide: true, params: TokenParams, querystring: SharePageQuery }, preValidation: dropEmptyQueryValues },
    async (request, reply) => {
      const shared = await shares.resolve(request.params.token);
      if (!shared) return sendNotFoundPage(reply);
      const path = `/s/${request.params.token}`;
      const nav: HeaderNav = { kind: request.webAccount ? 'signed-in' : 'signed-out' };
      if (shared.kind === 'report') {
        const visible = await asVisible(app.services, shared, brand);
        return sendPage(reply, 200, reportPage({
          report: shared.report,
          asOwner: false,
          signedIn: request.webAccount !== null,
          history: await historyOf(app.services, visible),
          brand: visible.brand,
          pdfUrl: app.services.rendering.pdf ? `${path}.pdf` : undefined,
        }));
      }
      const { page = 1, per_page: perPage = 100 } = request.query;
      const { crawl, pages, issues, bounds } = await crawls.overview(shared.organizationId, shared.crawl.id, { sortBy: 'url', sort: 'asc', page, perPage });
      const shown = await organizationBrand(app.services, shared.organizationId, brand);
      return sendPage(reply, 200, sharedCrawlPage({ path, nav, crawl, issues, bounds, pages, brand: shown }));
    },
  );

  await app.register(sharePdfRoutes, { brand });
};

/** In a scope of its own, so only the PDF counts against the limit (which it shares with /reports/{id}.pdf). */
const sharePdfRoutes: FastifyPluginAsyncTypebox<SharePageRouteOptions> = async (app, { brand }) => {
  const sendPdf = reportPdfSender(app);
  await registerPdfLimit(app);
  // find-my-way matches the ".pdf" suffix before the plain /s/:token (a token has no dot).
  app.get('/s/:token.pdf', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const shared = await app.services.shares.resolve(request.params.token);
    // A crawl has no PDF.
    if (shared?.kind !== 'report') return sendNotFoundPage(reply);
    return sendPdf(request, reply, await asVisible(app.services, shared, brand), `/s/${request.params.token}`);
  });
};
