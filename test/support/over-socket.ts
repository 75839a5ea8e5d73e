// One HTTP request to a Fastify app over a real loopback connection (inject skips the socket, and
// with it what Node's response writes: headers, content length, HEAD, connection handling). The app
// is made to listen on a free port first if it does not yet.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface SocketAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export async function requestOverSocket(
  app: FastifyInstance,
  method: 'GET' | 'HEAD',
  path: string,
  headers: Record<string, string> = {},
): Promise<SocketAnswer> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: { ...incoming.headers }, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
