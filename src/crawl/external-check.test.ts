import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExternal, MAX_EXTERNAL_REDIRECTS, TOO_MANY_REDIRECTS, type ExternalCheckOptions } from './external-check.ts';
import { createHostSlots } from './external-hosts.ts';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

type Route = (request: IncomingMessage, response: ServerResponse) => void;

const answer = (status: number, headers: Record<string, string> = {}): Route => (_request, response) => {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end('<p>hello</p>');
};

describe('checkExternal', () => {
  let server: Server;
  let origin = '';
  let closedPort = 0;
  const seen: Seen[] = [];
  let open = 0;
  let mostOpen = 0;
  const routes: Record<string, Route> = {
    '/ok': answer(200),
    '/gone': answer(404),
    '/broken': answer(500),
    '/no-head': (request, response) => (request.method === 'HEAD' ? answer(405)(request, response) : answer(200, { 'content-type': 'application/pdf' })(request, response)),
    '/head-unknown': (request, response) => (request.method === 'HEAD' ? answer(501)(request, response) : answer(404)(request, response)),
    // A GET whose body never ends: the check must not wait for it.
    '/endless': (request, response) => {
      if (request.method === 'HEAD') return answer(405)(request, response);
      response.writeHead(200, { 'content-type': 'video/mp4' });
      response.write(Buffer.alloc(64 * 1024));
    },
    '/slow': (request, response) => void setTimeout(() => answer(200)(request, response), 60),
    '/silent': () => {},
  };
  for (let step = 1; step <= 7; step++) routes[`/five/${step}`] = step <= 5 ? answer(301, { location: `/five/${step + 1}` }) : answer(200);
  for (let step = 1; step <= 7; step++) routes[`/six/${step}`] = answer(302, { location: `/six/${step + 1}` });

  const options = (extra: Partial<ExternalCheckOptions['fetch']> = {}, slots = createHostSlots(2)): ExternalCheckOptions => ({
    fetch: { timeoutMs: 2_000, userAgent: 'pagegrade-test/1 (external)', allowPrivate: true, ...extra },
    slots,
  });
  const requestsOf = (path: string) => seen.filter((request) => request.path === path).map((request) => request.method);

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      seen.push({ method: request.method ?? '', path, headers: request.headers });
      open++;
      mostOpen = Math.max(mostOpen, open);
      response.once('close', () => open--);
      (routes[path] ?? answer(404))(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A port nothing listens on: taken, then given back.
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    closedPort = (spare.address() as AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('asks with HEAD and records the answer, sending the User-Agent given and nothing of a crawl', async () => {
    expect(await checkExternal(`${origin}/ok`, options())).toEqual({ status_code: 200, redirect_target: null, content_type: 'text/html; charset=utf-8', error: null });
    expect(requestsOf('/ok')).toEqual(['HEAD']);
    const headers = seen.find((request) => request.path === '/ok')!.headers;
    expect(headers['user-agent']).toBe('pagegrade-test/1 (external)');
    expect(headers.cookie).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
  });

  it('records 4xx and 5xx answers as they came', async () => {
    expect(await checkExternal(`${origin}/gone`, options())).toMatchObject({ status_code: 404, error: null });
    expect(await checkExternal(`${origin}/broken`, options())).toMatchObject({ status_code: 500, error: null });
  });

  it('asks again with GET when the HEAD answers 405 or 501', async () => {
    expect(await checkExternal(`${origin}/no-head`, options())).toEqual({ status_code: 200, redirect_target: null, content_type: 'application/pdf', error: null });
    expect(requestsOf('/no-head')).toEqual(['HEAD', 'GET']);
    expect(await checkExternal(`${origin}/head-unknown`, options())).toMatchObject({ status_code: 404 });
    expect(requestsOf('/head-unknown')).toEqual(['HEAD', 'GET']);
  });

  it('does not read the body of a GET', async () => {
    const started = performance.now();
    expect(await checkExternal(`${origin}/endless`, options())).toMatchObject({ status_code: 200, content_type: 'video/mp4', error: null });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it(`follows ${MAX_EXTERNAL_REDIRECTS} redirects and says where they ended`, async () => {
    expect(await checkExternal(`${origin}/five/1`, options())).toEqual({ status_code: 200, redirect_target: `${origin}/five/6`, content_type: 'text/html; charset=utf-8', error: null });
    for (let step = 1; step <= 6; step++) expect(requestsOf(`/five/${step}`)).toEqual(['HEAD']);
  });

  it('does not follow a 6th redirect', async () => {
    expect(await checkExternal(`${origin}/six/1`, options())).toMatchObject({ status_code: 302, redirect_target: `${origin}/six/6`, error: TOO_MANY_REDIRECTS });
    for (let step = 1; step <= 6; step++) expect(requestsOf(`/six/${step}`)).toHaveLength(1);
    expect(requestsOf('/six/7')).toEqual([]);
  });

  it('records an unreachable URL with its error and no status', async () => {
    const outcome = await checkExternal(`http://127.0.0.1:${closedPort}/nothing`, options());
    expect(outcome).toMatchObject({ status_code: null, redirect_target: null, content_type: null });
    expect(outcome.error).toMatch(/refused the connection/);
  });

  it('gives up at the deadline', async () => {
    const outcome = await checkExternal(`${origin}/silent`, options({ timeoutMs: 150 }));
    expect(outcome).toMatchObject({ status_code: null });
    expect(outcome.error).toMatch(/within 150 ms/);
  });

  it('applies the address guard to the URL and to every hop', async () => {
    const guarded = { allowPrivate: false, publicAddressesForTests: ['127.0.0.1'] };
    const refused = await checkExternal('http://127.0.0.2:9/x', options({ allowPrivate: false }));
    expect(refused).toMatchObject({ status_code: null });
    expect(refused.error).toMatch(/127\.0\.0\.2 is a loopback address/);
    routes['/to-private'] = answer(301, { location: 'http://127.0.0.2:9/inside' });
    const hop = await checkExternal(`${origin}/to-private`, options(guarded));
    expect(hop).toMatchObject({ status_code: null, redirect_target: 'http://127.0.0.2:9/inside' });
    expect(hop.error).toMatch(/127\.0\.0\.2 is a loopback address/);
  });

  it('sends at most 2 requests at once to one host', async () => {
    const slots = createHostSlots(2);
    mostOpen = 0;
    open = 0;
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => checkExternal(`${origin}/slow`, options({}, slots))));
    expect(outcomes.every((outcome) => outcome.status_code === 200)).toBe(true);
    expect(mostOpen).toBe(2);
    expect(slots.room('127.0.0.1')).toBe(2);
  });
});

describe('createHostSlots', () => {
  it('hands slots out first come first served, and says which hosts are full', async () => {
    const slots = createHostSlots(2);
    const first = await slots.acquire('a.test');
    const second = await slots.acquire('a.test');
    expect(slots.room('a.test')).toBe(0);
    expect(slots.full()).toEqual(['a.test']);
    expect(slots.room('b.test')).toBe(2);
    let third = false;
    const waiting = slots.acquire('a.test').then((release) => ((third = true), release));
    await Promise.resolve();
    expect(third).toBe(false);
    first();
    first();
    const release = await waiting;
    expect(third).toBe(true);
    expect(slots.room('a.test')).toBe(0);
    second();
    release();
    expect(slots.room('a.test')).toBe(2);
    expect(slots.full()).toEqual([]);
  });

  it('stops waiting when the signal aborts', async () => {
    const slots = createHostSlots(1);
    const held = await slots.acquire('a.test');
    const controller = new AbortController();
    const waiting = slots.acquire('a.test', controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    held();
    expect(slots.room('a.test')).toBe(1);
  });
});
