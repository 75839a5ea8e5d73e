// Servers the fetch tests start on this machine: plain HTTP, HTTPS (HTTP/1.1 only) or HTTP/2 with
// HTTP/1.1 fallback, all with the self-signed certificate in ../fixtures. They record the path of
// every request so tests can count them.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_USER_AGENT, type FetchOptions } from '../../../src/fetch/options.ts';

export const TLS_CERT_PATH = new URL('../fixtures/tls-cert.pem', import.meta.url).pathname;
const TLS_KEY_PATH = new URL('../fixtures/tls-key.pem', import.meta.url).pathname;

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface TestServer {
  /** "http://127.0.0.1:PORT" */
  origin: string;
  port: number;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

export interface ServerOptions {
  host?: string;
  protocol?: 'http' | 'https' | 'h2';
}

export async function startServer(handler: Handler, options: ServerOptions = {}): Promise<TestServer> {
  const host = options.host ?? '127.0.0.1';
  const protocol = options.protocol ?? 'http';
  const requests: string[] = [];
  const record: Handler = (req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  };
  const tlsOptions = () => ({ key: readFileSync(TLS_KEY_PATH), cert: readFileSync(TLS_CERT_PATH) });
  const server =
    protocol === 'http'
      ? http.createServer(record)
      : protocol === 'https'
        ? https.createServer(tlsOptions(), record)
        : http2.createSecureServer({ ...tlsOptions(), allowHTTP1: true }, record as unknown as Parameters<typeof http2.createSecureServer>[1]);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `${protocol === 'http' ? 'http' : 'https'}://${host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Options for a fetch against these servers: loopback allowed unless a test says otherwise. */
export function testOptions(overrides: Partial<FetchOptions> = {}): FetchOptions {
  return { timeoutMs: 5000, maxBytes: 1024 * 1024, userAgent: DEFAULT_USER_AGENT, allowPrivate: true, ...overrides };
}

/** An HTML response with the given status and extra headers. */
export function sendHtml(res: http.ServerResponse, html: string | Buffer, headers: http.OutgoingHttpHeaders = {}, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(html);
}
