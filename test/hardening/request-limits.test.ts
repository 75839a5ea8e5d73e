// Size limits on what a client sends (docs/api.md "Requests": a body over 64 KiB is a 413; a url over 2048 characters a
// 422), and requests Node's HTTP parser or Fastify's router refuse before any route runs: each is a
// clean 4xx in the contract's error shape, never a 500, and nothing is stored. Real sockets, because
// app.inject bypasses the HTTP parser whose limits are under test.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseRaw(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(split + 4) };
}

/** Writes `request` as-is on a new connection and reads until the server closes it. */
function sendRaw(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    // The server may close while the client is still writing an oversized request; what it
    // answered before closing is what counts.
    socket.on('error', () => {});
    socket.on('close', () => (received ? resolve(parseRaw(received)) : reject(new Error('no answer'))));
    socket.write(request);
  });
}

const ONE_KIB = 1024;

describe.each(testDialects())('request size limits [%s]', (dialect) => {
  let t: TestApp;
  let port: number;
  let auth: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    key = (await t.createAccount('limits')).key;
    auth = `Authorization: Bearer ${key}\r\n`;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectContractError(response: RawResponse, status: number): { message: string; status: number } {
    expect(response.status, response.body.slice(0, 300)).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const parsed = JSON.parse(response.body);
    expect(Object.keys(parsed).sort()).toEqual(['message', 'status']);
    expect(parsed.status).toBe(status);
    expect(typeof parsed.message).toBe('string');
    return parsed;
  }

  async function expectNothingStored(): Promise<void> {
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/reports', headers: { authorization: `Bearer ${key}` } });
    expect(list.json().meta.total).toBe(0);
  }

  function post(contentType: string, body: string, framing: 'length' | 'chunked' = 'length'): string {
    const head = `POST /api/v1/reports HTTP/1.1\r\nHost: test\r\n${auth}Content-Type: ${contentType}\r\nConnection: close\r\n`;
    if (framing === 'length') return `${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    return `${head}Transfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  }

  describe('a body over 64 KiB is a 413', () => {
    const form = `url=${encodeURIComponent('https://example.com/')}&password=${'p'.repeat(65 * ONE_KIB)}`;

    it('when its Content-Length says so', async () => {
      const response = await sendRaw(port, post('application/x-www-form-urlencoded', form));
      expect(expectContractError(response, 413).message).toBe('The request body must be at most 65536 bytes.');
      await expectNothingStored();
    });

    it('when it arrives chunked, with no length announced', async () => {
      expectContractError(await sendRaw(port, post('application/x-www-form-urlencoded', form, 'chunked')), 413);
      await expectNothingStored();
    });

    it('as JSON too', async () => {
      const json = JSON.stringify({ url: 'https://example.com/', password: 'p'.repeat(65 * ONE_KIB) });
      expectContractError(await sendRaw(port, post('application/json', json)), 413);
      await expectNothingStored();
    });
  });

  describe('a url of more than 2048 characters is a 422 on url', () => {
    const longUrl = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`;

    it.each(['form', 'json'])('in a %s body', async (kind) => {
      expect(longUrl).toHaveLength(2049);
      const response =
        kind === 'form'
          ? await sendRaw(port, post('application/x-www-form-urlencoded', `url=${encodeURIComponent(longUrl)}`))
          : await sendRaw(port, post('application/json', JSON.stringify({ url: longUrl })));
      expect(response.status).toBe(422);
      const parsed = JSON.parse(response.body);
      expect(parsed.errors.url).toEqual(['The url must be at most 2048 characters.']);
      await expectNothingStored();
    });
  });

  describe('requests refused before any route runs', () => {
    it('headers over 16 KiB: 431', async () => {
      const response = await sendRaw(
        port,
        `GET /api/v1/reports HTTP/1.1\r\nHost: test\r\n${auth}X-Padding: ${'x'.repeat(17 * ONE_KIB)}\r\nConnection: close\r\n\r\n`,
      );
      expect(expectContractError(response, 431).message).toBe('The request headers are too large.');
    });

    it('a request line far over the limit: 431', async () => {
      const response = await sendRaw(
        port,
        `GET /api/v1/reports?search=${'a'.repeat(100 * ONE_KIB)} HTTP/1.1\r\nHost: test\r\n${auth}Connection: close\r\n\r\n`,
      );
      expectContractError(response, 431);
    });

    it('a path segment over the router limit: 414, without echoing the URL back', async () => {
      const id = '1'.repeat(3000);
      const response = await sendRaw(port, `GET /api/v1/reports/${id} HTTP/1.1\r\nHost: test\r\n${auth}Connection: close\r\n\r\n`);
      expect(expectContractError(response, 414).message).toBe('The URL is too long.');
      expect(response.body).not.toContain(id);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('a query value over its schema limit: 422 naming the parameter', async () => {
      const response = await sendRaw(
        port,
        `GET /api/v1/reports?search=${'a'.repeat(2049)} HTTP/1.1\r\nHost: test\r\n${auth}Connection: close\r\n\r\n`,
      );
      expect(response.status).toBe(422);
      expect(JSON.parse(response.body).errors.search).toEqual(['The search must be at most 2048 characters.']);
    });

    it.each(['/api/v1/reports/%E0%A4%A', '/api/v1/projects/%ff%fe', '/api/v1/projects/a%'])(
      'a path with broken percent-encoding (%s): 404 like any unknown resource',
      async (path) => {
        const response = await sendRaw(port, `DELETE ${path} HTTP/1.1\r\nHost: test\r\n${auth}Connection: close\r\n\r\n`);
        expect(JSON.parse(response.body)).toEqual({ message: 'Resource not found.', status: 404 });
        expect(response.status).toBe(404);
      },
    );

    it('bytes that are not HTTP: 400', async () => {
      const response = await sendRaw(port, 'GARBAGE\u0000\u0001 / HTTP/1.1\r\n\r\n');
      expectContractError(response, 400);
    });
  });
});
