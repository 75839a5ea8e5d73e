// Rendering as the rest of pagegrade calls it: `render(url)` gives the page's DOM after JavaScript, or
// a reason it could not be had, under the fetcher's own settings (address policy, deadline, user
// agent; a crawl's page with the crawl's user agent and request headers), `lab(url, profile)` measures
// the page as a phone or a desktop loads it (lab/lab-audit.ts), and `pdf(html)` prints a page of this
// server. Reports (render=1, lab=1), `analyze --render` and GET /reports/{id}.pdf go through one of
// these: one browser pool, so one Chromium per process.
import type { Page } from 'playwright-core';
import { addressPolicy } from '../fetch/address-guard.ts';
import type { FetchOptions } from '../fetch/options.ts';
import { createBrowserPool } from './browser-pool.ts';
import { chromiumAvailable } from './chromium.ts';
import { PRINT_LIMITS, printPdf, type PdfOptions } from './print-pdf.ts';
import { RenderFailure, type RenderLimits, type RenderOutcome } from './render-page.ts';
import { createTurns } from './turns.ts';
import { runAccessibility } from '../lab/accessibility.ts';
import { ACCESSIBILITY_MS, auditIn, labContextMs } from '../lab/lab-audit.ts';
import { LAB_PROFILE } from '../lab/lab-profiles.ts';
import type { LabAudit, LabProfileName } from '../lab/lab-types.ts';

export interface RendererSettings {
  /** PAGEGRADE_CHROMIUM_PATH */
  chromiumPath: string;
  /** PAGEGRADE_RENDER_CONCURRENCY: pages rendered or printed at once, in one browser. */
  concurrency: number;
  /** PAGEGRADE_LAB_CONCURRENCY: lab audits at once (each also takes one of the pool's `concurrency`). */
  labConcurrency: number;
  /** PAGEGRADE_LAB_TIMEOUT_MS: the longest a lab audit observes its page, from the navigation's start. */
  labTimeoutMs: number;
  fetch: FetchOptions;
}

/**
 * Whose requests the browser's are, when not the server's own: a crawl's User-Agent (its preset) and
 * request headers (for its hosts only), as the crawler sends them (crawl/crawl-requests.ts).
 */
export type BrowserRequests = Pick<FetchOptions, 'userAgent' | 'hostHeaders'>;

export interface Renderer {
  render(url: string, signal?: AbortSignal, requests?: BrowserRequests): Promise<RenderOutcome>;
  /** A lab audit of the page under `profile` (lab=1, docs/lab.md); never throws: a failure is `{ ok: false, reason }`. */
  lab(url: string, profile: LabProfileName, signal?: AbortSignal, requests?: BrowserRequests): Promise<LabAudit>;
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
  // Throttled timings taken side by side disturb each other: lab audits wait for a turn of their own.
  const labTurns = createTurns(settings.labConcurrency, 'The lab audit was cancelled.');
  const labLimits = (profile: LabProfileName): RenderLimits => {
    const { userAgent, viewport, deviceScaleFactor, isMobile, hasTouch } = LAB_PROFILE[profile];
    // The profile's user agent, whoever asks: a crawl's preset would not be the device measured.
    return { ...limits, timeoutMs: labContextMs(settings.labTimeoutMs), userAgent, emulation: { viewport, deviceScaleFactor, isMobile, hasTouch } };
  };
  const labOptions = (profile: LabProfileName) => ({
    profile,
    timeoutMs: settings.labTimeoutMs,
    runAccessibility: (page: Page) => runAccessibility(page, ACCESSIBILITY_MS),
  });
  return {
    render: (url, signal, requests) =>
      pool.render(url, requests ? { ...limits, userAgent: requests.userAgent, hostHeaders: requests.hostHeaders } : limits, signal),
    // A crawl's request headers are not set on a lab audit's requests (see docs/lab.md).
    lab: (url, profile, signal) =>
      labTurns
        .take(() => pool.withGuardedContext(labLimits(profile), (guarded) => auditIn(guarded, url, labOptions(profile)), signal), signal)
        .catch((error: unknown): LabAudit => ({ ok: false, reason: `The lab audit could not load the page: ${lowerFirst(labFailure(error))}` })),
    pdf: (html, options) => pool.withOfflineContext(PRINT_LIMITS, (context) => printPdf(context, html, options)),
    close: () => pool.close(),
  };
}

/** Why a lab audit's use of the browser failed: the pool's sentence (a deadline, a crash, cancelled), or what was thrown. */
function labFailure(error: unknown): string {
  if (error instanceof RenderFailure) return error.message;
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

const lowerFirst = (sentence: string) => sentence.charAt(0).toLowerCase() + sentence.slice(1);
