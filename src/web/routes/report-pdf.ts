// /reports/{id}.pdf: the report page printed to PDF by the server's Chromium, with print media (so it
// is what a browser's print gives, print.css), a running header and a footer with the brand, the
// report's date and page numbers. Who may have it is decided exactly as for the page (report-viewer.ts):
// a hidden report is the not-found page, a locked one answers with its password form. The share
// links' /s/{token}.pdf (share-pages.ts) prints through the same sender, under the same limit.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ReportIdParams } from '../../schemas/reports.ts';
import { parseId } from '../../schemas/parse-id.ts';
import type { ReportAccessService } from '../../services/report-access.service.ts';
import type { Report } from '../../services/types.ts';
import { sendPage } from '../render.ts';
import { selfContained, type AssetLoader } from '../self-contained.ts';
import type { BrandView } from '../views/brand.ts';
import { errorPage } from '../views/message-pages.ts';
import { reportPage } from '../views/report.ts';
import { registerPdfLimit } from '../pdf-limit.ts';
import { historyOf, visibleReport, type VisibleReport } from './report-viewer.ts';

export interface ReportPdfRouteOptions {
  access: ReportAccessService;
  /** Whose name, logo and colour the PDF wears (white-label), as the page does. */
  brand: BrandView;
}

/** The largest stylesheet or logo put inside a PDF (the logo is at most 1 MiB, config.ts). */
const MAX_ASSET_BYTES = 2 * 1024 * 1024;

const REPORT_DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/**
 * The page's stylesheets and images, read from this server without the viewer's cookies, each once:
 * they are app.css, print.css and the brand's logo and colour, which never change while the server
 * runs (their URLs carry a hash of what they serve), so every PDF after the first reuses them. Only
 * what was found is kept, so a failed read is tried again by the next PDF.
 */
function assetLoader(app: FastifyInstance): AssetLoader {
  const loaded = new Map<string, ReturnType<AssetLoader>>();
  const read: AssetLoader = async (path) => {
    const response = await app.inject({ method: 'GET', url: path });
    if (response.statusCode !== 200 || response.rawPayload.length > MAX_ASSET_BYTES) return null;
    return { contentType: String(response.headers['content-type'] ?? ''), body: response.rawPayload };
  };
  return (path) => {
    let asset = loaded.get(path);
    if (!asset) {
      // The promise is kept at once, so PDFs asked for together read each asset once too.
      asset = read(path);
      loaded.set(path, asset);
      asset.then(
        (found) => found === null && loaded.delete(path),
        () => loaded.delete(path),
      );
    }
    return asset;
  };
}

/** e.g. example.com-seo-report-12.pdf: the name says what the file is, in ASCII any system accepts. */
function fileName(report: Report): string {
  let host = 'page';
  try {
    host = new URL(report.url).hostname.replace(/[^a-z0-9.-]/gi, '-') || host;
  } catch {
    // a stored URL is always absolute; the name does without the host otherwise
  }
  return `${host}-seo-report-${report.id}.pdf`;
}

function sendNoBrowserPage(reply: FastifyReply, pageHref: string): FastifyReply {
  return sendPage(reply, 422, errorPage({
    heading: 'PDFs are not available',
    message: 'PDFs are not available on this server: it has no browser (PAGEGRADE_CHROMIUM_PATH). The report page prints as a PDF from your browser too.',
    back: { href: pageHref, label: 'Back to the report' },
  }));
}

/** Answers a report the viewer may see with its PDF, or the page that says why not; `pageHref`: where those pages lead back to. */
export type SendReportPdf = (request: FastifyRequest, reply: FastifyReply, visible: VisibleReport, pageHref: string) => Promise<FastifyReply>;

/** Prints reports, each wearing its organisation's brand; its assets are read once for every PDF it makes. */
export function reportPdfSender(app: FastifyInstance): SendReportPdf {
  const loadAsset = assetLoader(app);
  return async (request, reply, visible, pageHref) => {
    const print = app.services.rendering.pdf;
    if (!print) return sendNoBrowserPage(reply, pageHref);
    const { report, brand } = visible;
    // Every viewer gets the same document: the page as anyone with the link sees it, without the owner's bar.
    if (report.generated_at === null) {
      // No analysis has succeeded yet: the page that says so (it reloads itself while one is under way,
      // so the PDF comes once there is something to print). 409: the report is not in a state to print.
      // No history to read: a report has runs only from its first successful analysis on.
      return sendPage(reply, 409, reportPage({ report, asOwner: false, signedIn: false, brand }));
    }
    const page = reportPage({ report, asOwner: false, signedIn: false, history: await historyOf(app.services, visible), brand });
    let pdf: Buffer;
    try {
      pdf = await print(await selfContained(page.toString(), loadAsset), {
        title: `SEO report · ${report.url}`,
        dateLabel: `Report of ${REPORT_DATE.format(new Date(report.generated_at))} UTC`,
        brandName: brand.name,
      });
    } catch (error) {
      request.log.error({ err: error, reportId: report.id }, 'PDF could not be made');
      return sendPage(reply, 503, errorPage({
        heading: 'The PDF could not be made',
        message: 'The server could not print this report just now. Try again in a minute.',
        back: { href: pageHref, label: 'Back to the report' },
      }));
    }
    return reply
      .code(200)
      .type('application/pdf')
      // Never kept by a cache: a report's PDF changes with each analysis and may be private or locked.
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `inline; filename="${fileName(report)}"`)
      .send(pdf);
  };
}

export const reportPdfRoutes: FastifyPluginAsyncTypebox<ReportPdfRouteOptions> = async (app, { access, brand }) => {
  const sendPdf = reportPdfSender(app);
  // In this plugin's scope, so only the PDF route counts.
  await registerPdfLimit(app);

  // find-my-way matches the ".pdf" suffix before the plain /reports/:id, in any order of registration.
  app.get('/reports/:id.pdf', { schema: { hide: true, params: ReportIdParams } }, async (request, reply) => {
    const id = parseId(request.params.id);
    const visible = await visibleReport(access, request, reply, id, brand);
    if (!visible) return reply;
    return sendPdf(request, reply, visible, `/reports/${id}`);
  });
};
