// What a rendered page's requests go out as, decided in Chromium before each is sent: its images
// refused, and a crawl's request headers (docs/crawls.md, "Scope and request headers") set on the
// requests to the crawl's hosts only, each redirect hop judged by its own host.
//
// Why Chromium's Fetch domain and not playwright's route.continue({ headers }): playwright drops a
// Cookie given there (it leaves the cookie to the browser's store), and it carries the headers of a
// request it continued onto every redirect of it, to whatever host: a staging site's Cookie would go
// to the host it redirects to. Here each hop is held and answered on its own.
import type { BrowserContext, Page } from 'playwright-core';
import type { HostHeaders } from '../fetch/options.ts';

/** Contexts whose pages refuse their images (a rendering's): the request cap does not count those. */
export const refusingImages = new WeakSet<BrowserContext>();

/** What Chromium is asked through a session: a method and its parameters (answers are not awaited). */
type Send = (method: string, params: object) => Promise<unknown>;
type Listen = (handler: (method: string, params: Record<string, unknown>) => void) => void;

const IMAGE_REQUESTS = { patterns: [{ urlPattern: '*', resourceType: 'Image', requestStage: 'Request' }] };
/** With headers to set, every request is held: one to another host may be a redirect hop that must go without them. */
const EVERY_REQUEST = { patterns: [{ urlPattern: '*', requestStage: 'Request' }] };

/**
 * Images never change the DOM a search engine reads, and they are most of a page's bytes. The browser
 * shows images (a PDF needs its logo), so a rendered page refuses its own: Chromium holds each image
 * request of the tab before sending it and is told to fail it; without `hostHeaders` nothing else is
 * held. A frame of another site runs in a process of its own (site isolation) that the tab's session
 * does not see: each is attached as it starts, held until its requests are handled too, then let go,
 * and so on down its own frames (a dedicated worker's requests are its frame's, held with them). Those sessions are reached through their parent's
 * (non-flat sessions: playwright's sessions take no child session id).
 */
export async function interceptPageRequests(context: BrowserContext, page: Page, hostHeaders?: HostHeaders): Promise<void> {
  refusingImages.add(context);
  const session = await context.newCDPSession(page);
  const on: Listen = (handler) => {
    for (const method of ['Fetch.requestPaused', 'Target.attachedToTarget', 'Target.receivedMessageFromTarget', 'Target.detachedFromTarget'] as const) {
      session.on(method, (params) => handler(method, params as unknown as Record<string, unknown>));
    }
  };
  const headers = hostHeaders && Object.keys(hostHeaders.headers).length > 0 ? hostHeaders : undefined;
  await Promise.all(interceptIn((method, params) => session.send(method as 'Fetch.enable', params), on, headers));
}

let messageId = 0;

/** Makes the target behind `send` handle its requests and attach its frames of other sites; the calls sent, in order. */
function interceptIn(send: Send, listen: Listen, hostHeaders: HostHeaders | undefined): Promise<unknown>[] {
  const frames = new Map<string, (method: string, params: Record<string, unknown>) => void>();
  const quietly = (sent: Promise<unknown>) => void sent.catch(() => {});
  listen((method, params) => {
    if (method === 'Fetch.requestPaused') {
      quietly(answerPaused(send, params as unknown as PausedRequest, hostHeaders));
    } else if (method === 'Target.attachedToTarget') {
      const sessionId = String(params.sessionId);
      const sendToFrame: Send = (frameMethod, frameParams) =>
        send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: (messageId += 1), method: frameMethod, params: frameParams }) });
      const handlers: Parameters<Listen>[0][] = [];
      frames.set(sessionId, (frameMethod, frameParams) => handlers.forEach((handler) => handler(frameMethod, frameParams)));
      // A session's messages are handled in the order sent: the frame runs only once it holds its requests.
      interceptIn(sendToFrame, (handler) => handlers.push(handler), hostHeaders).forEach(quietly);
      quietly(sendToFrame('Runtime.runIfWaitingForDebugger', {}));
    } else if (method === 'Target.receivedMessageFromTarget') {
      const message = JSON.parse(String(params.message)) as { method?: string; params?: Record<string, unknown> };
      if (message.method) frames.get(String(params.sessionId))?.(message.method, message.params ?? {});
    } else if (method === 'Target.detachedFromTarget') {
      frames.delete(String(params.sessionId));
    }
  });
  return [
    send('Fetch.enable', hostHeaders ? EVERY_REQUEST : IMAGE_REQUESTS),
    // Frames only; each waits for this session before it runs.
    send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false, filter: [{ type: 'iframe' }, { exclude: true }] }),
  ];
}

interface PausedRequest {
  requestId: string;
  resourceType: string;
  request: { url: string; headers: Record<string, string> };
}

function answerPaused(send: Send, paused: PausedRequest, hostHeaders: HostHeaders | undefined): Promise<unknown> {
  if (paused.resourceType === 'Image') return send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'BlockedByClient' });
  const headers = hostHeaders && headersFor(paused.request, hostHeaders);
  return send('Fetch.continueRequest', headers ? { requestId: paused.requestId, headers } : { requestId: paused.requestId });
}

/**
 * The headers a held request goes with, or undefined to send it as it is. To one of the hosts: the
 * crawl's headers in place of the browser's own of those names. To another: as it is, unless it
 * carries one of them with the crawl's value, which is then taken off: Chromium 156 sends a redirect
 * hop without the headers its request was continued with, a later version might not.
 */
export function headersFor(request: PausedRequest['request'], hostHeaders: HostHeaders): { name: string; value: string }[] | undefined {
  const own = Object.entries(request.headers);
  const ours = hostHeaders.headers;
  if (hostHeaders.hosts.includes(hostOf(request.url))) {
    const kept = own.filter(([name]) => !Object.hasOwn(ours, name.toLowerCase()));
    return [...kept, ...Object.entries(ours)].map(([name, value]) => ({ name, value }));
  }
  const carried = (name: string, value: string) => Object.hasOwn(ours, name.toLowerCase()) && ours[name.toLowerCase()] === value;
  if (!own.some(([name, value]) => carried(name, value))) return undefined;
  return own.filter(([name, value]) => !carried(name, value)).map(([name, value]) => ({ name, value }));
}

/** The URL's host as URL.host writes it (with a port that is not the default); '' for no URL. */
function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : '';
}
