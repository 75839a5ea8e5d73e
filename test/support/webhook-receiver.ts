// A webhook receiver on this machine for delivery tests: answers each request with the next scripted
// status (the last one repeats) and records what arrived, so a test can check ids, timestamps and
// signatures itself.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export interface Receiver {
  url(path?: string): string;
  received: ReceivedDelivery[];
  close(): Promise<void>;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
}

export async function startReceiver(answers: readonly (number | ReceiverAnswer)[] = [200], host = '127.0.0.1'): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      });
      const next = answers[Math.min(received.length, answers.length) - 1];
      const answer = typeof next === 'number' ? { status: next } : next;
      response.writeHead(answer.status, answer.headers).end('ok');
    });
  });
  await new Promise<void>((listening) => server.listen(0, host, listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://${host}:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
