// One page in a browser: a fresh context whose only way out is a guarded proxy of its own, one
// deadline, caps on requests and bytes, no service workers, downloads or popups. The outcome is the
// rendered DOM as HTML (parsed later by the same parsePage as the raw HTML) or a reason for people.
//
// A context is prepared (its proxy, the context, an empty tab) before the page it is for is known, so
// the pool can make the next one while the current page loads: a fresh context costs a new renderer
// process, the largest part of a page's CPU after its own scripts. Nothing of a page ever reaches
// another: each prepared context serves exactly one page, and is closed after it.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AddressPolicy } from '../fetch/address-guard.ts';
import { loadAndRead } from './chromium.ts';
import { REFUSED_HEADER, startGuardedProxy, type GuardedProxy } from './guarded-proxy.ts';

export interface RenderLimits {
  policy: AddressPolicy;
  /** One deadline for the page: loading, scripts settling and reading the DOM. */
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

/** A fresh context behind its own proxy, with one empty tab, waiting for its page. */
export interface PreparedPage {
  limits: RenderLimits;
  proxy: GuardedProxy;
  /** The context and its tab; rejects when the browser could not make them. */
  made: Promise<{ context: BrowserContext; page: Page }>;
  /** Where the proxy reports the byte cap (renderPage listens). */
  limited: { notify(reason: string): void };
  /** Closes what was made, unused: a context prepared for a page that never came. */
  discard(): Promise<void>;
}

/** How long a context gets to close after the page; a renderer that will not let go costs its browser. */
const TEARDOWN_MS = 5_000;

export async function preparePage(browser: Browser, limits: RenderLimits): Promise<PreparedPage> {
  const limited = { notify: (_reason: string) => {} };
  const proxy = await startGuardedProxy({ policy: limits.policy, maxBytes: limits.maxBytes, onLimit: (reason) => limited.notify(reason) });
  const made = (async () => {
    const context = await browser.newContext({
      // `<-loopback>`: Chromium otherwise sends loopback addresses past any proxy, and so past the guard.
      proxy: { server: proxy.server, bypass: '<-loopback>' },
      serviceWorkers: 'block',
      acceptDownloads: false,
      userAgent: limits.userAgent,
    });
    return { context, page: await context.newPage() };
  })();
  // Handled where it is awaited; never an unhandled rejection while it waits.
  made.catch(() => {});
  return {
    limits,
    proxy,
    made,
    limited,
    async discard() {
      await closeWithin(made.then(({ context }) => context), TEARDOWN_MS);
      await proxy.close();
    },
  };
}

/** Loads `url` in the prepared context, reads its DOM, and closes the context. Never throws. */
export async function renderPage(prepared: PreparedPage, url: string, signal?: AbortSignal): Promise<PageRendering> {
  const { limits, proxy } = prepared;
  let stop!: (reason: string) => void;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  prepared.limited.notify = (reason) => stop(reason);
  const timer = setTimeout(() => stop(`The page did not finish loading in the browser within ${limits.timeoutMs} ms.`), limits.timeoutMs);
  const onAbort = () => stop('The rendering was cancelled.');
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();

  let requests = 0;
  let refusedDocument: string | null = null;
  let browser: Browser | null = null;
  const onDisconnect = () => stop('The browser crashed while rendering the page.');
  const load = async (): Promise<RenderOutcome> => {
    const { context, page } = await prepared.made;
    browser = context.browser();
    browser?.once('disconnected', onDisconnect);
    context.on('request', () => {
      requests += 1;
      if (requests > limits.maxRequests) stop(`The page made more than ${limits.maxRequests} requests in the browser (the limit per page).`);
    });
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
    (browser as Browser | null)?.off('disconnected', onDisconnect);
  }
  const limit = proxy.limitReached();
  if (limit) outcome = { ok: false, reason: limit };
  const clean = await closeWithin(prepared.made.then(({ context }) => context), TEARDOWN_MS);
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

/** Closes the context (once made) unless that takes longer than `ms`; says whether it closed (or none was made). */
async function closeWithin(contextMade: Promise<BrowserContext>, ms: number): Promise<boolean> {
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
