// The targets a lab audit throttles and listens to: the page, and each of its frames of another site,
// which Chromium runs in a process of its own (site isolation) that the page's session neither throttles
// nor hears. Each such frame is attached as it starts and held until it has the page's settings
// (network and CPU throttling, the Network events on), then let go; and so on down its own frames. As
// in render/page-requests.ts, a frame's session is reached through its parent's (non-flat sessions:
// playwright's sessions take no child session id).
import type { CDPSession } from 'playwright-core';

/** A CDP command: a method and its parameters. */
export type Command = readonly [method: string, params: object];

type Send = (method: string, params: object) => Promise<unknown>;
type Handler = (method: string, params: Record<string, unknown>) => void;

/** The events read from every target: the network's (lab-network.ts) and the frames'. */
const NETWORK_EVENTS = [
  'Network.requestWillBeSent',
  'Network.responseReceived',
  'Network.dataReceived',
  'Network.loadingFinished',
  'Network.loadingFailed',
  'Network.webSocketCreated',
] as const;
const TARGET_EVENTS = ['Target.attachedToTarget', 'Target.receivedMessageFromTarget', 'Target.detachedFromTarget'] as const;

/** Frames only; each waits for its settings before it runs. */
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: false, filter: [{ type: 'iframe' }, { exclude: true }] };

export interface WatchedTargets {
  /** Settles once the page has its settings (a frame's answers are not awaited: it runs only after them). */
  ready: Promise<unknown>;
  /** Sends the commands to the page (awaited) and to every frame attached now; frames attached later get `settings()` as it then is. */
  broadcast(commands: readonly Command[]): Promise<unknown>;
}

let messageId = 0;

/**
 * Gives the page, and each frame as it is attached, `settings()` with the Network domain on, and hands
 * every Network event of any of them to `onNetwork`.
 */
export function watchTargets(session: CDPSession, settings: () => readonly Command[], onNetwork: Handler): WatchedTargets {
  const frames = new Set<Send>();
  const send: Send = (method, params) => session.send(method as 'Network.enable', params);
  const listen = (handler: Handler) => {
    for (const method of [...NETWORK_EVENTS, ...TARGET_EVENTS]) session.on(method, (params) => handler(method, params as unknown as Record<string, unknown>));
  };
  const ready = Promise.all(watch(send, listen, settings, onNetwork, frames));
  return {
    ready,
    async broadcast(commands) {
      for (const frame of frames) for (const [method, params] of commands) void frame(method, params).catch(() => {});
      await Promise.all(commands.map(([method, params]) => send(method, params)));
    },
  };
}

/** Makes the target behind `send` take the settings and attach its frames; the commands sent, in order. */
function watch(send: Send, listen: (handler: Handler) => void, settings: () => readonly Command[], onNetwork: Handler, frames: Set<Send>): Promise<unknown>[] {
  const children = new Map<string, { send: Send; handlers: Handler[] }>();
  const quietly = (sent: Promise<unknown>) => void sent.catch(() => {});
  listen((method, params) => {
    if (method.startsWith('Network.')) {
      onNetwork(method, params);
    } else if (method === 'Target.attachedToTarget') {
      const sessionId = String(params.sessionId);
      const sendToFrame: Send = (frameMethod, frameParams) =>
        send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: (messageId += 1), method: frameMethod, params: frameParams }) });
      const handlers: Handler[] = [];
      children.set(sessionId, { send: sendToFrame, handlers });
      frames.add(sendToFrame);
      // A session's messages are handled in the order sent: the frame runs only once it has its settings.
      watch(sendToFrame, (handler) => handlers.push(handler), settings, onNetwork, frames).forEach(quietly);
      quietly(sendToFrame('Runtime.runIfWaitingForDebugger', {}));
    } else if (method === 'Target.receivedMessageFromTarget') {
      const message = JSON.parse(String(params.message)) as { method?: string; params?: Record<string, unknown> };
      if (message.method) children.get(String(params.sessionId))?.handlers.forEach((handler) => handler(message.method!, message.params ?? {}));
    } else if (method === 'Target.detachedFromTarget') {
      const child = children.get(String(params.sessionId));
      if (child) frames.delete(child.send);
      children.delete(String(params.sessionId));
    }
  });
  return [send('Network.enable', {}), ...settings().map(([method, params]) => send(method, params)), send('Target.setAutoAttach', AUTO_ATTACH)];
}
