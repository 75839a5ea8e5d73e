// One page in a browser: a fresh context whose only way out is a guarded proxy of its own, one
// deadline, caps on requests and bytes, no service workers, downloads or popups. The outcome is the
// rendered DOM as HTML (parsed later by the same parsePage as the raw HTML) or a reason for people.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AddressPolicy } from '../fetch/address-guard.ts';
import { loadAndRead } from './chromium.ts';
import { REFUSED_HEADER, startGuardedProxy, type GuardedProxy } from './guarded-proxy.ts';

export interface RenderLimits {
  policy: AddressPolicy;
  /** One deadline for the page: the context, loading, scripts settling and reading the DOM. */
  timeoutMs: number;
  /** Bytes the browser may receive for the page, every request together. */
  maxBytes: number;
  /** Requests the page may make (documents, scripts, XHR, websockets...). */
  maxRequests: number;
  userAgent: string;
}

export type RenderOutcome =
  | { ok: true; html: string; finalUrl: string; requests: number; bytes: number }
  | { ok: false; reason: string };

export interface PageRendering {
  outcome: RenderOutcome;
  /** False when the context would not close: the browser is not trusted with another page. */
  clean: boolean;
}

/** How long a context gets to close after the page; a renderer that will not let go costs its browser. */
const TEARDOWN_MS = 5_000;

export async function renderPage(browser: Browser, url: string, limits: RenderLimits, signal?: AbortSignal): Promise<PageRendering> {
  let stop!: (reason: string) => void;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const proxy = await startGuardedProxy({ policy: limits.policy, maxBytes: limits.maxBytes, onLimit: (reason) => stop(reason) });
  const timer = setTimeout(() => stop(`The page did not finish loading in the browser within ${limits.timeoutMs} ms.`), limits.timeoutMs);
  const onAbort = () => stop('The rendering was cancelled.');
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const onDisconnect = () => stop('The browser crashed while rendering the page.');
  browser.once('disconnected', onDisconnect);

  let contextMade: Promise<BrowserContext> | undefined;
  let requests = 0;
  let refusedDocument: string | null = null;
  const load = async (): Promise<RenderOutcome> => {
    // Assigned before anything is awaited, so teardown always knows of the context.
    contextMade = browser.newContext({
      // `<-loopback>`: Chromium otherwise sends loopback addresses past any proxy, and so past the guard.
      proxy: { server: proxy.server, bypass: '<-loopback>' },
      serviceWorkers: 'block',
      acceptDownloads: false,
      userAgent: limits.userAgent,
    });
    const context = await contextMade;
    context.on('request', () => {
      requests += 1;
      if (requests > limits.maxRequests) stop(`The page made more than ${limits.maxRequests} requests in the browser (the limit per page).`);
    });
    const page = await context.newPage();
    // A popup is another page, and none but the one asked for is loaded.
    context.on('page', (other) => void (other !== page && other.close().catch(() => {})));
    page.on('crash', () => stop('The page crashed the browser tab.'));
    watchRefusedDocuments(page, () => (refusedDocument = proxy.refusals.at(-1) ?? 'The page leads to an address pagegrade does not load.'));
    const { html, finalUrl } = await loadAndRead(page, url, limits.timeoutMs);
    if (refusedDocument !== null) return { ok: false, reason: refusedDocument };
    // Scripts can build a DOM far larger than anything they downloaded; it would be parsed and stored.
    if (html.length > limits.maxBytes) return { ok: false, reason: `The page's HTML after JavaScript is larger than ${mib(limits.maxBytes)} MiB.` };
    return { ok: true, html, finalUrl, requests, bytes: proxy.bytes() };
  };

  let outcome: RenderOutcome;
  try {
    outcome = await Promise.race([
      load().catch((error: unknown) => failure(error, proxy, limits.timeoutMs)),
      stopped.then((reason): RenderOutcome => ({ ok: false, reason })),
    ]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    browser.off('disconnected', onDisconnect);
  }
  const limit = proxy.limitReached();
  if (limit) outcome = { ok: false, reason: limit };
  // The context may still be on its way when the deadline came: close whatever it turns out to be.
  const clean = await closeWithin(contextMade, TEARDOWN_MS);
  await proxy.close();
  return { outcome, clean };
}

function mib(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

/** The main frame's document answered by the proxy's refusal: the page itself is off limits. */
function watchRefusedDocuments(page: Page, refused: () => void): void {
  page.on('response', (response) => {
    const request = response.request();
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && response.headers()[REFUSED_HEADER] !== undefined) refused();
  });
}

/** A reason for people from what playwright threw. */
function failure(error: unknown, proxy: GuardedProxy, timeoutMs: number): RenderOutcome {
  const message = error instanceof Error ? error.message : String(error);
  const refusal = proxy.refusals.at(-1);
  if (error instanceof Error && error.name === 'TimeoutError') {
    return { ok: false, reason: `The page did not finish loading in the browser within ${timeoutMs} ms.` };
  }
  // A refused HTTPS document fails the navigation itself (the tunnel was refused).
  if (refusal && /ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY_CONNECTION_FAILED/.test(message)) return { ok: false, reason: refusal };
  if (/Target (page, context or browser )?(has been )?closed|Browser has been closed/i.test(message)) {
    return { ok: false, reason: 'The browser closed while rendering the page.' };
  }
  const firstLine = message.split('\n')[0].replace(/^[a-zA-Z.]+: /, '');
  return { ok: false, reason: `The browser could not load the page: ${firstLine}` };
}

/** Closes the context (once made; undefined: none was asked for) unless that takes longer than `ms`; says whether it closed. */
async function closeWithin(contextMade: Promise<BrowserContext> | undefined, ms: number): Promise<boolean> {
  if (contextMade === undefined) return true;
  let timer: NodeJS.Timeout | undefined;
  const closing = contextMade.then(
    (context) => context.close().then(() => true, () => true),
    // Never made (the browser went): nothing to close.
    () => true,
  );
  const closed = await Promise.race([closing, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  clearTimeout(timer);
  return closed;
}
