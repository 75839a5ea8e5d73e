// A report's past on the web: /reports/{id}/runs (the list), /reports/{id}/runs/{run} (one run, shown
// as the report page shows the latest) and /reports/{id}/compare (two runs as a diff). Whoever may see
// the report page may see these (report-viewer.ts); a run of another report is not found.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ReportIdParams } from '../../schemas/reports.ts';
import { DiffQuery, RunParams } from '../../schemas/runs.ts';
import { parseId } from '../../schemas/parse-id.ts';
import type { ReportAccessService } from '../../services/report-access.service.ts';
import { diffRuns } from '../../services/run-diff.ts';
import type { BrandView } from '../views/brand.ts';
import type { HeaderNav } from '../views/layout.ts';
import { sendPage } from '../render.ts';
import { comparePage } from '../views/run-compare.ts';
import { reportPage } from '../views/report.ts';
import { runsPage } from '../views/runs-page.ts';
import { visibleReport } from './report-viewer.ts';

export interface ReportRunRouteOptions {
  access: ReportAccessService;
  /** A run's page is the report page as it was: it wears the same brand. */
  brand: BrandView;
}

const RUNS_PER_PAGE = 50;
/** The compare form offers the newest runs: as many as a report keeps by default (PAGEGRADE_RUNS_KEPT). */
const COMPARE_CHOICES = 100;

const RunsPageQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })) });

function viewerNav(request: FastifyRequest): HeaderNav {
  return { kind: request.webAccount ? 'signed-in' : 'signed-out' };
}

export const reportRunRoutes: FastifyPluginAsyncTypebox<ReportRunRouteOptions> = async (app, { access, brand }) => {
  const { runs, lists } = app.services;

  app.get('/reports/:id/runs', { schema: { hide: true, params: ReportIdParams, querystring: RunsPageQuery } }, async (request, reply) => {
    const visible = await visibleReport(access, request, reply, parseId(request.params.id), brand);
    if (!visible) return reply;
    const page = await lists.runs(visible.ownerId, visible.report.id, { page: request.query.page ?? 1, perPage: RUNS_PER_PAGE });
    return sendPage(reply, 200, runsPage({ report: visible.report, nav: viewerNav(request), page, brand: visible.brand }));
  });

  app.get('/reports/:id/runs/:run', { schema: { hide: true, params: RunParams } }, async (request, reply) => {
    const runId = parseId(request.params.run);
    const visible = await visibleReport(access, request, reply, parseId(request.params.id), brand);
    if (!visible) return reply;
    const { report, ownerId, asOwner } = visible;
    const [run, newest] = await Promise.all([
      runs.show(ownerId, report.id, runId),
      lists.runs(ownerId, report.id, { page: 1, perPage: 1 }),
    ]);
    const { page, results, rendered, lab, structured_data: structuredData, ...summary } = run;
    // The report as it was at that run: the run's verdict, score, results, rendering, structured data and page facts.
    const asOfRun = { ...report, result: run.result, score: run.score, issues: run.issues, page, results, rendered, lab, structured_data: structuredData, generated_at: run.generated_at };
    return sendPage(reply, 200, reportPage({
      report: asOfRun,
      asOwner,
      signedIn: request.webAccount !== null,
      run: { ...summary, latest: newest.items[0]?.id === run.id },
      brand: visible.brand,
    }));
  });

  app.get('/reports/:id/compare', { schema: { hide: true, params: ReportIdParams, querystring: DiffQuery } }, async (request, reply) => {
    const visible = await visibleReport(access, request, reply, parseId(request.params.id), brand);
    if (!visible) return reply;
    const { report, ownerId, brand: shown } = visible;
    const nav = viewerNav(request);
    const choices = (await lists.runs(ownerId, report.id, { page: 1, perPage: COMPARE_CHOICES })).items;
    if (choices.length < 2) return sendPage(reply, 200, comparePage({ report, nav, runs: choices, brand: shown }));
    const fromId = request.query.from ?? choices[1].id;
    const toId = request.query.to ?? choices[0].id;
    if (fromId === toId) {
      return sendPage(reply, 422, comparePage({ report, nav, runs: choices, error: 'Pick two different runs to compare.', brand: shown }));
    }
    const picked = await Promise.all([runs.show(ownerId, report.id, fromId), runs.show(ownerId, report.id, toId)]);
    // Two runs picked in either order mean "compare these": the older one is always the "from".
    const [from, to] = picked.sort((a, b) => a.number - b.number);
    return sendPage(reply, 200, comparePage({ report, nav, runs: choices, compared: { from, to, diff: diffRuns(report.id, from, to) }, brand: shown }));
  });
};
