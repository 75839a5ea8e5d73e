import { afterEach, describe, expect, it } from 'vitest';
import { startServer, testOptions, type TestServer } from '../../test/fetch/support/test-server.ts';
import { addressPolicy } from './address-guard.ts';
import { auxRequest, type AuxContext } from './aux-request.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function redirectingServer(): Promise<TestServer> {
  const server = await startServer((req, res) => {
    if (req.url === '/a') res.writeHead(301, { location: '/b' }).end();
    else if (req.url === '/b') res.writeHead(302, { location: '/c' }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
  });
  servers.push(server);
  return server;
}

function context(onRequest?: AuxContext['onRequest']): AuxContext {
  const options = testOptions();
  return { options, policy: addressPolicy(options), signal: AbortSignal.timeout(10_000), onRequest };
}

describe('auxRequest\'s onRequest hook', () => {
  it('is awaited before every request, each redirect hop included', async () => {
    const server = await redirectingServer();
    const seen: string[] = [];
    const result = await auxRequest(`${server.origin}/a`, context(async (url) => {
      seen.push(`${url.pathname} after ${server.requests.length}`);
    }), { maxBytes: 100, onOverflow: 'fail' });
    expect(seen).toEqual(['/a after 0', '/b after 1', '/c after 2']);
    expect(result.response).toMatchObject({ statusCode: 200, finalUrl: `${server.origin}/c`, redirected: true });
    expect(result.bytes?.toString()).toBe('done');
  });

  it('rejects with what the hook rejected with, and sends nothing more', async () => {
    const server = await redirectingServer();
    const stop = new Error('the crawl reached its requests');
    const request = auxRequest(`${server.origin}/a`, context(async (url) => {
      if (url.pathname === '/b') throw stop;
    }), null);
    await expect(request).rejects.toBe(stop);
    expect(server.requests).toEqual(['/a']);
  });

  it('keeps the redirect limits', async () => {
    const server = await startServer((req, res) => res.writeHead(301, { location: req.url === '/x' ? '/y' : '/x' }).end());
    servers.push(server);
    const result = await auxRequest(`${server.origin}/x`, context(async () => {}), null);
    expect(result.response.error).toBe(`Redirect loop: ${server.origin}/x -> ${server.origin}/y -> ${server.origin}/x`);
  });
});
