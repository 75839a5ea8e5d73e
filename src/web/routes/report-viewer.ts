// Who is looking at a report's pages (the report, its runs, a comparison): one decision, by the same
// access service, for all of them. A locked report answers with its password form and a hidden one
// with the not-found page, so every page of a report treats a viewer the same way. The password form
// wears the report's brand: it is the first page a client given the link sees.
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

export type VisibleReport = Extract<ReportAccess, { kind: 'visible' }>;

/** The report when the viewer may see it; otherwise the answer is sent and the result is undefined. */
export async function visibleReport(
  access: ReportAccessService,
  request: FastifyRequest,
  reply: FastifyReply,
  id: number,
  brand: BrandView,
): Promise<VisibleReport | undefined> {
  const result = await access.view(id, { accountId: request.webAccount?.id ?? null, unlockToken: request.cookies[unlockCookieName(id)] });
  switch (result.kind) {
    case 'visible':
      return result;
    case 'locked':
      sendPage(reply, 200, unlockPage({ reportId: id, csrfToken: csrfToken(reply), signedIn: request.webAccount !== null, brand }));
      return undefined;
    case 'hidden':
      sendNotFoundPage(reply);
      return undefined;
    default:
      throw new Error(`unknown access ${JSON.stringify(result satisfies never)}`);
  }
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
