// Who is looking at a report's pages (the report, its runs, a comparison): one decision, by the same
// access service, for all of them. A locked report answers with its password form and a hidden one
// with the not-found page, so every page of a report treats a viewer the same way. Every page of a
// report, the password form first (the first page a client given the link sees), wears its
// organisation's brand (docs/organisations.md, "White-label").
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReportAccess, ReportAccessService } from '../../services/report-access.service.ts';
import type { Services } from '../../services/index.ts';
import { unlockCookieName } from '../cookies.ts';
import { csrfToken } from '../csrf.ts';
import { sendNotFoundPage, sendPage } from '../render.ts';
import { reportHistory } from '../views/report-history.ts';
import { CHART_RUNS } from '../views/score-chart.ts';
import type { BrandView } from '../views/brand.ts';
import { unlockPage } from '../views/unlock.ts';
import type { SafeHtml } from '../html.ts';
import { organizationBrandView } from './brand.ts';

/** A report the viewer may see, with the brand its pages wear. */
export type VisibleReport = Extract<ReportAccess, { kind: 'visible' }> & { brand: BrandView };

/** The report when the viewer may see it; otherwise the answer is sent and the result is undefined. */
export async function visibleReport(
  access: ReportAccessService,
  request: FastifyRequest,
  reply: FastifyReply,
  id: number,
  serverBrand: BrandView,
): Promise<VisibleReport | undefined> {
  const result = await access.view(id, { accountId: request.webAccount?.id ?? null, unlockToken: request.cookies[unlockCookieName(id)] });
  switch (result.kind) {
    case 'visible':
      return { ...result, brand: await organizationBrand(request.server.services, result.report.organization, serverBrand) };
    case 'locked':
      sendPage(reply, 200, unlockPage({
        reportId: id,
        csrfToken: csrfToken(reply),
        signedIn: request.webAccount !== null,
        brand: await organizationBrand(request.server.services, result.organizationId, serverBrand),
      }));
      return undefined;
    case 'hidden':
      sendNotFoundPage(reply);
      return undefined;
    default:
      throw new Error(`unknown access ${JSON.stringify(result satisfies never)}`);
  }
}

/** The brand an organisation's pages wear: its own where set, else the server's. */
export async function organizationBrand(services: Services, organizationId: number, serverBrand: BrandView): Promise<BrandView> {
  return organizationBrandView(await services.organizations.brand(organizationId), serverBrand);
}

/**
 * The report page's history, from its second run on: the newest runs' summaries (no results) for the
 * chart and list, and the latest run against the one before it. The access service decided the viewer
 * may see the report, so its runs are read as its owner's.
 */
export async function historyOf(services: Services, { report, ownerId }: VisibleReport): Promise<SafeHtml | undefined> {
  if (report.runs_count < 2) return undefined;
  const runs = await services.lists.runs(ownerId, report.id, { page: 1, perPage: CHART_RUNS });
  // Older runs may have been let go since the report was read: a history needs two.
  if (runs.items.length < 2) return undefined;
  const [latest, previous] = runs.items;
  const changes = await services.runs.diff(ownerId, report.id, { from: previous.id, to: latest.id });
  return reportHistory({ reportId: report.id, runs: runs.items, runsCount: runs.total, changes });
}
