// Rendering as the rest of pagegrade calls it: `render(url)` gives the page's DOM after JavaScript, or
// a reason it could not be had, under the fetcher's own settings (address policy, deadline, user
// agent; a crawl's page with the crawl's user agent and request headers), and `pdf(html)` prints a page of this server. Reports (render=1), `analyze --render` and
// GET /reports/{id}.pdf go through one of these: one browser pool, so one Chromium per process.
import { addressPolicy } from '../fetch/address-guard.ts';
import type { FetchOptions } from '../fetch/options.ts';
import { createBrowserPool } from './browser-pool.ts';
import { chromiumAvailable } from './chromium.ts';
import { PRINT_LIMITS, printPdf, type PdfOptions } from './print-pdf.ts';
import type { RenderLimits, RenderOutcome } from './render-page.ts';

export interface RendererSettings {
  /** PAGEGRADE_CHROMIUM_PATH */
  chromiumPath: string;
  /** PAGEGRADE_RENDER_CONCURRENCY: pages rendered or printed at once, in one browser. */
  concurrency: number;
  fetch: FetchOptions;
}

/**
 * Whose requests the browser's are, when not the server's own: a crawl's User-Agent (its preset) and
 * request headers (for its hosts only), as the crawler sends them (crawl/crawl-requests.ts).
 */
export type BrowserRequests = Pick<FetchOptions, 'userAgent' | 'hostHeaders'>;

export interface Renderer {
  render(url: string, signal?: AbortSignal, requests?: BrowserRequests): Promise<RenderOutcome>;
  /** A self-contained page (no request leaves it) printed to PDF: GET /reports/{id}.pdf. */
  pdf(html: string, options: PdfOptions): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * A page's scripts, styles and data weigh far more than its HTML: the browser may receive this many
 * times the HTML cap (PAGEGRADE_MAX_PAGE_BYTES, so 40 MiB by default) before the page is cut off.
 */
const BYTES_PER_HTML_BYTE = 8;
/** Far more than a page needs to render (a heavy news page makes 200-300), far less than a page loop can make. */
const MAX_REQUESTS = 500;

/** null when no Chromium is at `chromiumPath`: rendering is then not available (render=1 is a 422). */
export function createRenderer(settings: RendererSettings): Renderer | null {
  if (!chromiumAvailable(settings.chromiumPath)) return null;
  const pool = createBrowserPool({ chromiumPath: settings.chromiumPath, size: settings.concurrency });
  const limits: RenderLimits = {
    policy: addressPolicy(settings.fetch),
    timeoutMs: settings.fetch.timeoutMs,
    maxBytes: settings.fetch.maxBytes * BYTES_PER_HTML_BYTE,
    maxRequests: MAX_REQUESTS,
    userAgent: settings.fetch.userAgent,
  };
  return {
    render: (url, signal, requests) =>
      pool.render(url, requests ? { ...limits, userAgent: requests.userAgent, hostHeaders: requests.hostHeaders } : limits, signal),
    pdf: (html, options) => pool.withOfflineContext(PRINT_LIMITS, (context) => printPdf(context, html, options)),
    close: () => pool.close(),
  };
}
