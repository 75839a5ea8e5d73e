// sendJsonParts takes the reply over from Fastify: over a real socket, its answer must carry what
// Fastify would have sent (status, headers set before, type and length), for GET and HEAD, and close
// its connection while the server shuts down, as the app's onSend hook does for every other answer.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJsonParts, sendJsonText } from './send-json-text.ts';
import { requestOverSocket as ask } from '../../test/support/over-socket.ts';

const PARTS = ['{"data":[', '{"id":1},{"id":2}', '],"status":200}'];

describe('answers written as byte parts', () => {
  let app: FastifyInstance;
  const logLines: string[] = [];

  beforeAll(async () => {
    app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } } });
    app.decorate('shuttingDown', false);
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('x-set-before', 'yes');
    });
    app.get('/parts', async (_request, reply) => sendJsonParts(reply, PARTS.map((part) => Buffer.from(part))));
    app.get('/joined', async (_request, reply) => sendJsonText(reply, PARTS.join('')));
    app.get('/parts-while-closing', async (_request, reply) => {
      app.shuttingDown = true;
      try {
        return sendJsonParts(reply, PARTS.map((part) => Buffer.from(part)));
      } finally {
        app.shuttingDown = false;
      }
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sends the parts in order with the headers Fastify sends for the joined text', async () => {
    const parts = await ask(app, 'GET', '/parts');
    const joined = await ask(app, 'GET', '/joined');
    expect(parts.status).toBe(200);
    expect(parts.body).toBe(PARTS.join(''));
    expect(JSON.parse(parts.body)).toEqual({ data: [{ id: 1 }, { id: 2 }], status: 200 });
    for (const name of ['content-type', 'content-length', 'x-set-before', 'connection', 'keep-alive']) {
      expect(parts.headers[name], name).toBe(joined.headers[name]);
    }
    expect(parts.headers['content-length']).toBe(String(Buffer.byteLength(PARTS.join(''))));
  });

  it('is logged as completed, as answers Fastify sends are', async () => {
    logLines.length = 0;
    await ask(app, 'GET', '/parts');
    await new Promise((resolve) => setImmediate(resolve));
    const completed = logLines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request completed');
    expect(completed?.res?.statusCode).toBe(200);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const head = await ask(app, 'HEAD', '/parts');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(PARTS.join(''))));
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('closes the connection while the server shuts down', async () => {
    const answer = await ask(app, 'GET', '/parts-while-closing');
    expect(answer.body).toBe(PARTS.join(''));
    expect(answer.headers.connection).toBe('close');
    expect((await ask(app, 'GET', '/parts')).headers.connection).toBe('keep-alive');
  });
});
