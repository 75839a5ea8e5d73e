// The web side: shareable report pages and the dashboard. Thin adapters over the same services as the
// API, rendered on the server with typed templates; one small script, one stylesheet, no CDN.
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ReportAccessService } from '../services/report-access.service.ts';
import type { WebSessionService } from '../services/web-session.service.ts';
import { ASSETS_DIRECTORY, ASSETS_PREFIX } from './assets.ts';
import type { AttemptLimiter } from './attempt-limiter.ts';
import { registerCsrf } from './csrf.ts';
import { registerWebErrorHandler } from './errors.ts';
import { registerWebSession } from './session.ts';
import { dashboardCrawlRoutes } from './routes/dashboard-crawls.ts';
import { dashboardProjectRoutes } from './routes/dashboard-projects.ts';
import { dashboardReportRoutes } from './routes/dashboard-reports.ts';
import { dashboardWebhookRoutes } from './routes/dashboard-webhooks.ts';
import { registerBrand } from './routes/brand.ts';
import { reportPdfRoutes } from './routes/report-pdf.ts';
import { reportPageRoutes } from './routes/report-page.ts';
import { reportRunRoutes } from './routes/report-runs.ts';
import { signInRoutes } from './routes/sign-in.ts';
import { sharePageRoutes } from './routes/share-pages.ts';

export interface WebOptions {
  access: ReportAccessService;
  sessions: WebSessionService;
  unlockAttempts: AttemptLimiter;
}

/** Asset URLs carry a content hash (assets.ts), so a year of caching never serves a stale file. */
const ASSET_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

export async function webRoutes(app: FastifyInstance, options: WebOptions): Promise<void> {
  await registerCsrf(app);
  registerWebErrorHandler(app);

  await app.register(fastifyStatic, {
    root: ASSETS_DIRECTORY,
    prefix: ASSETS_PREFIX,
    decorateReply: false,
    // Routes for the files present at start only: nothing else under /assets/ is ever served.
    wildcard: false,
    index: false,
    maxAge: ASSET_MAX_AGE_MS,
    immutable: true,
  });

  // The operator's logo and colour (PAGEGRADE_BRAND_*), served like assets; report pages wear the brand.
  const brand = registerBrand(app, app.config.brand);

  // Pages in their own scope, so the session look-up runs for pages and not for every asset.
  await app.register(async (pages) => {
    registerWebSession(pages, options.sessions);
    pages.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/reports', 302));
    await pages.register(signInRoutes, { sessions: options.sessions });
    await pages.register(reportPageRoutes, { access: options.access, unlockAttempts: options.unlockAttempts, brand });
    await pages.register(reportPdfRoutes, { access: options.access, brand });
    await pages.register(reportRunRoutes, { access: options.access, brand });
    await pages.register(dashboardReportRoutes);
    await pages.register(dashboardProjectRoutes);
    await pages.register(dashboardCrawlRoutes);
    await pages.register(dashboardWebhookRoutes);
    await pages.register(sharePageRoutes, { brand });
  });
}
