// One use of a browser (rendering a page, printing one): a fresh context whose only way out is a
// guarded proxy of its own (runGuarded), or that has no way out at all (runOffline: printing), one
// deadline, a cap on requests (and bytes, behind the proxy), no service workers, downloads or popups,
// and the context closed after. Nothing of one use ever reaches another. `renderIn` is the rendering:
// the DOM after JavaScript as HTML (parsed later by the same parsePage as the raw HTML), without the
// page's images, or a reason for people.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AddressPolicy } from '../fetch/address-guard.ts';
import type { HostHeaders } from '../fetch/options.ts';
import { loadAndRead } from './chromium.ts';
import { interceptPageRequests, refusingImages } from './page-requests.ts';
import { REFUSED_HEADER, startGuardedProxy, type GuardedProxy } from './guarded-proxy.ts';

export interface RenderLimits {
  policy: AddressPolicy;
  /** One deadline for the page: its context, loading, scripts settling and reading the DOM. */
  timeoutMs: number;
  /** Bytes the browser may receive for the page, every request together. */
  maxBytes: number;
  /** Requests the page may make (documents, scripts, XHR, websockets...). */
  maxRequests: number;
  userAgent: string;
  /** A crawl's request headers: set on the page's requests to their hosts only (page-requests.ts). */
  hostHeaders?: HostHeaders;
  /** The device the context's pages are shown on (a lab audit's profile, lab/lab-profiles.ts); without, playwright's default screen. */
  emulation?: BrowserEmulation;
}

/** A device's screen as a browser context takes it. */
interface BrowserEmulation {
  /** CSS pixels */
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
}

export type RenderOutcome =
  | { ok: true; html: string; finalUrl: string; requests: number; bytes: number }
  | { ok: false; reason: string };

/** Why a use of the browser failed, as a sentence for people (a deadline, a cap, a crash, a full pool). */
export class RenderFailure extends Error {
  override name = 'RenderFailure';
}

/** A fresh context behind its own proxy, for one use. */
export interface GuardedContext {
  context: BrowserContext;
  proxy: GuardedProxy;
  /** Requests the context's pages made so far. */
  requests(): number;
}

export interface GuardedRun<T> {
  /** What `use` returned, or why it failed: its own error, or a RenderFailure (deadline, cap, crash, cancel). */
  result: { ok: true; value: T } | { ok: false; error: unknown };
  /** Settles once the context is closed: false when it would not close (the browser is not trusted again). */
  teardown: Promise<boolean>;
}

/** How long a context gets to close after its use; a renderer that will not let go costs its browser. */
const TEARDOWN_MS = 5_000;
/** Port 9 (discard) on loopback: nothing listens, so a request out of an offline context goes nowhere. */
const NOWHERE_PROXY = 'http://127.0.0.1:9';

/** What an offline use of the browser (printing a page of ours) is held to. */
export interface OfflineLimits {
  /** One deadline for the use, its context included. */
  timeoutMs: number;
  /** Why the deadline failed it, as a sentence for people. */
  deadlineReason: string;
  /** Requests its page may make (each aborted, or sent nowhere). */
  maxRequests: number;
}

/** One deadline, and cancelling, for one use: `stopped` rejects with the reason once either comes (or `stop` is called). */
interface Stopper {
  stopped: Promise<never>;
  stop(reason: string): void;
  dispose(): void;
}

function stopper(timeoutMs: number, deadlineReason: string, signal: AbortSignal | undefined): Stopper {
  let stop!: (reason: string) => void;
  const stopped = new Promise<never>((_resolve, reject) => (stop = (reason) => reject(new RenderFailure(reason))));
  stopped.catch(() => {});
  const timer = setTimeout(() => stop(deadlineReason), timeoutMs);
  const onAbort = () => stop('The rendering was cancelled.');
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  return {
    stopped,
    stop,
    dispose() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Runs `use` in the context once it is made, until `run` stops it: a context closed under it (the
 * browser went), a tab that crashed and requests past `maxRequests` stop it; a second page (a popup)
 * is closed as it appears.
 */
async function useContext<T>(
  contextMade: Promise<BrowserContext>,
  maxRequests: number,
  run: Stopper,
  use: (context: BrowserContext, requests: () => number) => Promise<T>,
): Promise<GuardedRun<T>['result']> {
  let requests = 0;
  const inContext = async (): Promise<T> => {
    const context = await contextMade.catch((error: unknown) => {
      throw new RenderFailure(`The page could not be given a browser context: ${String(error).split('\n')[0]}`);
    });
    // Closed before its use is over: the browser went (its process crashed or was killed).
    context.on('close', () => run.stop('The browser crashed while rendering the page.'));
    let pages = 0;
    context.on('page', (page) => {
      pages += 1;
      if (pages > 1) return void page.close().catch(() => {});
      page.on('crash', () => run.stop('The page crashed the browser tab.'));
    });
    context.on('request', (request) => {
      // A rendering refuses every image before it is sent (page-requests.ts): those cost the page nothing.
      if (request.resourceType() === 'image' && refusingImages.has(context)) return;
      requests += 1;
      if (requests > maxRequests) run.stop(`The page made more than ${maxRequests} requests in the browser (the limit per page).`);
    });
    return use(context, () => requests);
  };
  try {
    return { ok: true, value: await Promise.race([inContext(), run.stopped]) };
  } catch (error) {
    return { ok: false, error };
  } finally {
    run.dispose();
  }
}

/**
 * Opens a fresh guarded context on `browser` and runs `use` in it, within `limits.timeoutMs` from now
 * (making the context included). The first page opened in the context is the one `use` works with; any
 * later one (a popup) is closed as it appears. Never throws.
 */
export async function runGuarded<T>(
  browser: Browser,
  limits: RenderLimits,
  use: (guarded: GuardedContext) => Promise<T>,
  signal?: AbortSignal,
): Promise<GuardedRun<T>> {
  const run = stopper(limits.timeoutMs, `The page did not finish loading in the browser within ${limits.timeoutMs} ms.`, signal);
  const proxyStarted = startGuardedProxy({ policy: limits.policy, maxBytes: limits.maxBytes, onLimit: run.stop });
  const contextMade = proxyStarted.then((proxy) =>
    browser.newContext({
      // `<-loopback>`: Chromium otherwise sends loopback addresses past any proxy, and so past the guard.
      proxy: { server: proxy.server, bypass: '<-loopback>' },
      serviceWorkers: 'block',
      acceptDownloads: false,
      userAgent: limits.userAgent,
      ...limits.emulation,
    }),
  );
  // Handled where awaited; never an unhandled rejection while the deadline runs.
  contextMade.catch(() => {});
  let result = await useContext(contextMade, limits.maxRequests, run, async (context, requests) => use({ context, proxy: await proxyStarted, requests }));
  // A page cut off by the byte cap may still have finished with what it had: it failed all the same.
  const limit = await proxyStarted.then((proxy) => proxy.limitReached(), () => null);
  if (limit) result = { ok: false, error: new RenderFailure(limit) };
  const teardown = (async () => {
    const clean = await closeWithin(contextMade, TEARDOWN_MS);
    await proxyStarted.then((proxy) => proxy.close(), () => {});
    return clean;
  })();
  return { result, teardown };
}

/**
 * Opens a fresh context that reaches nothing (its proxy is a closed port, loopback included) with
 * JavaScript off, and runs `use` in it within `limits.timeoutMs`: for printing a page of this server
 * that carries everything it shows. Popups, crashes and the request cap as runGuarded. Never throws.
 */
export async function runOffline<T>(browser: Browser, limits: OfflineLimits, use: (context: BrowserContext) => Promise<T>, signal?: AbortSignal): Promise<GuardedRun<T>> {
  const run = stopper(limits.timeoutMs, limits.deadlineReason, signal);
  const contextMade = browser.newContext({
    javaScriptEnabled: false,
    serviceWorkers: 'block',
    acceptDownloads: false,
    proxy: { server: NOWHERE_PROXY, bypass: '<-loopback>' },
  });
  contextMade.catch(() => {});
  const result = await useContext(contextMade, limits.maxRequests, run, (context) => use(context));
  return { result, teardown: closeWithin(contextMade, TEARDOWN_MS) };
}

/** Loads `url` in the context's page, lets scripts settle and reads the DOM. Never throws. */
export async function renderIn({ context, proxy, requests }: GuardedContext, url: string, limits: RenderLimits): Promise<RenderOutcome> {
  try {
    const page = await context.newPage();
    await interceptPageRequests(context, page, limits.hostHeaders);
    let refusedDocument: string | null = null;
    watchRefusedDocuments(page, () => (refusedDocument = proxy.refusals.at(-1) ?? 'The page leads to an address pagegrade does not load.'));
    const { html, finalUrl } = await loadAndRead(page, url, limits.timeoutMs);
    if (refusedDocument !== null) return { ok: false, reason: refusedDocument };
    // Scripts can build a DOM far larger than anything they downloaded; it would be parsed and stored.
    if (html.length > limits.maxBytes) return { ok: false, reason: `The page's HTML after JavaScript is larger than ${mib(limits.maxBytes)} MiB.` };
    return { ok: true, html, finalUrl, requests: requests(), bytes: proxy.bytes() };
  } catch (error) {
    return failure(error, proxy, limits.timeoutMs);
  }
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
