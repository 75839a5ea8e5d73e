// The only way out of the browser: a forward proxy in this process, one per page rendered, that
// connects only where the private-address guard allows.
//
// Why a proxy and not request interception (context.route) alone: interception sees a URL, and
// checking its host means resolving it here while Chromium then resolves it again to connect, so a
// name that answers public to the check and private to the connection (DNS rebinding) gets through.
// Interception also misses what is not a routed request (websockets, some redirects, preconnects).
// Behind a proxy Chromium resolves nothing itself: every plain-HTTP request comes here whole, every
// HTTPS and websocket connection as a CONNECT tunnel, and the proxy resolves the name once with the
// guard's lookup and connects to exactly the addresses it checked, as the fetcher does (agents.ts).
// The context's proxy bypass list is `<-loopback>`, so even loopback targets come through it.
//
// One proxy per page also makes the page's limits exact: the bytes it relays are the page's bytes,
// and closing it cuts every connection the page still had.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Transform, type Duplex } from 'node:stream';
import { guardedLookup, refusalBeforeLookup, type AddressPolicy } from '../fetch/address-guard.ts';
import { resolveForBrowser } from './proxy-dns.ts';

export interface ProxyLimits {
  policy: AddressPolicy;
  /** Bytes relayed to the browser (bodies and tunnels) before every connection is cut. */
  maxBytes: number;
  /** Told once, when the byte cap cuts the page off. */
  onLimit?: (reason: string) => void;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`, for the browser context's proxy setting. */
  server: string;
  /** Bytes relayed to the browser so far. */
  bytes(): number;
  /** Why the page's traffic was cut (the byte cap), or null while it was not. */
  limitReached(): string | null;
  /** Connections the guard refused, each as a sentence (for tests and logs). */
  refusals: string[];
  /** Cuts every connection and stops listening. */
  close(): Promise<void>;
}

/** Headers that describe one hop, not the request: never passed on (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The headers of a request or an answer without the hop-by-hop ones, to pass on. */
function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const passed: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) passed[name] = value;
  }
  return passed;
}

/** Set on the proxy's own refusals, so a refused document is never mistaken for the page. */
export const REFUSED_HEADER = 'x-pagegrade-refused';

/** A connect attempt that takes longer than this fails; the page's deadline usually comes first. */
const CONNECT_TIMEOUT_MS = 10_000;

export async function startGuardedProxy(limits: ProxyLimits): Promise<GuardedProxy> {
  // Names resolved as a browser would (proxy-dns.ts); every address checked by the same guard.
  const lookup = guardedLookup(limits.policy, resolveForBrowser);
  const sockets = new Set<Duplex>();
  const refusals: string[] = [];
  let relayed = 0;
  let limit: string | null = null;
  let closed = false;

  function track<T extends Duplex>(socket: T): T {
    if (closed) socket.destroy();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  }

  function cutEverything(): void {
    for (const socket of sockets) socket.destroy();
  }

  /** Counts bytes going to the browser; past the cap every connection of the page is cut. */
  function count(bytes: number): boolean {
    relayed += bytes;
    if (relayed <= limits.maxBytes) return true;
    if (limit === null) {
      limit = `The page loaded more than ${Math.round(limits.maxBytes / (1024 * 1024))} MiB in the browser (the limit per page).`;
      limits.onLimit?.(limit);
    }
    cutEverything();
    return false;
  }

  /** A stream that counts what goes through it to the browser. */
  function counted(): Transform {
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (count(chunk.length)) done(null, chunk);
        else done();
      },
    });
  }

  function refuse(host: string, error: Error): string {
    const reason = error.name === 'AddressRefusedError' ? error.message : `${host} could not be reached (${(error as NodeJS.ErrnoException).code ?? error.message}).`;
    if (error.name === 'AddressRefusedError') refusals.push(reason);
    return reason;
  }

  /** A plain-HTTP request in absolute form (`GET http://host/path`): forwarded through the guard. */
  function forward(request: IncomingMessage, response: ServerResponse): void {
    const target = URL.canParse(request.url ?? '') ? new URL(request.url!) : null;
    if (!target || target.protocol !== 'http:') {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('pagegrade\'s browser proxy forwards http:// URLs only.');
      return;
    }
    const early = refusalBeforeLookup(target.hostname, limits.policy);
    if (early) {
      refusals.push(early.message);
      response.writeHead(403, { 'content-type': 'text/plain', [REFUSED_HEADER]: '1' }).end(early.message);
      return;
    }
    const upstream = httpRequest({
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || 80,
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers: endToEnd(request.headers),
      lookup,
      timeout: CONNECT_TIMEOUT_MS,
      // One connection per request: a kept-alive connection would outlive the check of its name.
      agent: false,
    });
    upstream.on('socket', (socket) => void track(socket));
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      // Piped, so the upstream is read only as fast as the browser reads (a download it refuses is not read on).
      answer.pipe(counted()).pipe(response);
      answer.on('error', () => response.destroy());
    });
    // The browser gave up on the request (a refused download, a page closed): so does the proxy.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    upstream.on('error', (error) => {
      const reason = refuse(target.host, error);
      if (response.headersSent) response.destroy();
      else if (error.name === 'AddressRefusedError') response.writeHead(403, { 'content-type': 'text/plain', [REFUSED_HEADER]: '1' }).end(reason);
      else response.writeHead(502, { 'content-type': 'text/plain' }).end(reason);
    });
    request.pipe(upstream);
  }

  /** `CONNECT host:port`: HTTPS and websockets. The tunnel opens only to an address the guard accepts. */
  function tunnel(request: IncomingMessage, client: Duplex, head: Buffer): void {
    track(client);
    const authority = request.url ?? '';
    const target = URL.canParse(`http://${authority}`) ? new URL(`http://${authority}`) : null;
    if (!target || target.port === '') {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const early = refusalBeforeLookup(target.hostname, limits.policy);
    if (early) {
      refusals.push(early.message);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream: Socket = track(
      connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port), lookup, timeout: CONNECT_TIMEOUT_MS }),
    );
    let connected = false;
    upstream.once('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(counted()).pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', (error) => {
      refuse(target.host, error);
      if (connected) client.destroy();
      else client.end(error.name === 'AddressRefusedError' ? 'HTTP/1.1 403 Forbidden\r\n\r\n' : 'HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    client.once('error', () => upstream.destroy());
    client.once('close', () => upstream.destroy());
  }

  const server = createServer(forward);
  server.on('connection', (socket) => void track(socket));
  server.on('connect', tunnel);
  // Chromium tunnels websockets with CONNECT; an upgrade sent in absolute form is not something it does.
  server.on('upgrade', (_request, socket: Duplex) => socket.destroy());
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    server: `http://127.0.0.1:${port}`,
    bytes: () => relayed,
    limitReached: () => limit,
    refusals,
    async close() {
      closed = true;
      cutEverything();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
