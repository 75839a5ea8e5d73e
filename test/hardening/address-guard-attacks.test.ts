// The private-address guard attacked through the API, as a client would: POST /api/v1/reports with
// private targets in every spelling, names that resolve to private addresses, redirects from an allowed
// host to a private one, and DNS answers that change between connections (rebinding). Each is a 422 on
// url that says why, nothing is stored, and the private server never sees a request.
//
// 127.0.0.2 stands in for a public host (the publicAddressesForTests seam); 127.0.0.1 is the private
// server. Both listen on the same port, so a guard that checked one address and connected to another
// would reach the private one. Names under .test are answered by a resolver the test controls, put in
// place of dns.lookup before the first fetch creates the guarded agent.
import dns, { type LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage } from '../support/site-server.ts';
import { body, call, listProjects, listReports, type Account } from '../support/api-fixtures.ts';

const PUBLIC_STAND_IN = '127.0.0.2';

interface Listener {
  server: Server;
  requests: string[];
}

async function listen(host: string, port: number, handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.headers.host}${request.url}`);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { server, requests } satisfies Listener;
}

function close(listener: Listener | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!listener) return resolve();
    listener.server.closeAllConnections();
    listener.server.close(() => resolve());
  });
}

// The private server: anything it answers would be a leak.
let inside: Listener;
// The "public" server at 127.0.0.2 on the same port. Every answer closes its connection, so each
// request needs a new connection and so a new DNS lookup.
let outside: Listener;
let port: number;
/** Lookups of rebind.test so far: the first is answered public, every later one private. */
let rebindLookups = 0;
/** What switch.test resolves to right now. */
let switchAddress = PUBLIC_STAND_IN;

const redirects: Record<string, () => string> = {
  '/to-loopback': () => `http://127.0.0.1:${port}/secret`,
  '/to-localhost': () => `http://localhost:${port}/secret`,
  '/to-decimal': () => `http://2130706433:${port}/secret`,
  '/to-mapped': () => `http://[::ffff:127.0.0.1]:${port}/secret`,
  '/to-metadata': () => 'http://169.254.169.254/latest/meta-data/',
  '/to-private-name': () => `http://loop.test:${port}/secret`,
  // One allowed hop first, then the private target.
  '/via-public-hop': () => `http://${PUBLIC_STAND_IN}:${port}/to-loopback`,
  // rebind.test is reached only through this redirect, so the page fetch makes its only lookups.
  '/rebind-entry': () => `http://rebind.test:${port}/rebind-start`,
  '/rebind-start': () => `http://rebind.test:${port}/rebind-next`,
};

/** What the controlled resolver answers for each .test name. */
const ANSWERS: Record<string, () => LookupAddress[]> = {
  'public.test': () => [{ address: PUBLIC_STAND_IN, family: 4 }],
  'intranet.test': () => [{ address: '10.0.0.7', family: 4 }],
  'loop.test': () => [{ address: '127.0.0.1', family: 4 }],
  'mapped.test': () => [{ address: '::ffff:127.0.0.1', family: 6 }],
  'link-local.test': () => [{ address: 'fe80::1', family: 6 }],
  // A name with one allowed and one private address is not trusted at all.
  'mixed.test': () => [
    { address: PUBLIC_STAND_IN, family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'rebind.test': () => {
    rebindLookups += 1;
    return [{ address: rebindLookups === 1 ? PUBLIC_STAND_IN : '127.0.0.1', family: 4 }];
  },
  'switch.test': () => [{ address: switchAddress, family: 4 }],
};

beforeAll(async () => {
  inside = await listen('127.0.0.1', 0, (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<title>internal admin</title>');
  });
  port = (inside.server.address() as AddressInfo).port;
  outside = await listen(PUBLIC_STAND_IN, port, (request, response) => {
    const target = redirects[request.url ?? ''];
    if (target) {
      response.writeHead(302, { location: target(), connection: 'close' });
      response.end();
      return;
    }
    response.writeHead(request.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
    response.end(goodPage());
  });

  const realLookup = dns.lookup;
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: unknown, callback: unknown) => {
    const answer = ANSWERS[hostname.toLowerCase()];
    if (!answer) return (realLookup as (...args: unknown[]) => void)(hostname, options, callback);
    const addresses = answer();
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    const done = callback as (err: null, address: string | LookupAddress[], family?: number) => void;
    process.nextTick(() => (all ? done(null, addresses) : done(null, addresses[0].address, addresses[0].family)));
  }) as typeof dns.lookup);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await close(outside);
  await close(inside);
});

/** Spellings of private targets that the WHATWG URL parser accepts, with the kind of refusal. */
const SPELLINGS: [host: string, reason: RegExp][] = [
  ['127.0.0.1', /127\.0\.0\.1 is a loopback address/],
  ['127.1', /127\.0\.0\.1 is a loopback address/], // short IPv4
  ['127.0.1', /127\.0\.0\.1 is a loopback address/],
  ['2130706433', /127\.0\.0\.1 is a loopback address/], // decimal
  ['017700000001', /127\.0\.0\.1 is a loopback address/], // octal
  ['0177.0.0.1', /127\.0\.0\.1 is a loopback address/],
  ['0x7f000001', /127\.0\.0\.1 is a loopback address/], // hex
  ['0x7F.0.0.1', /127\.0\.0\.1 is a loopback address/],
  ['0x7f.1', /127\.0\.0\.1 is a loopback address/],
  ['127.000.000.001', /127\.0\.0\.1 is a loopback address/],
  ['127.0.0.1.', /127\.0\.0\.1\.? is (a loopback address|this machine)/], // trailing dot
  ['%31%32%37.0.0.1', /127\.0\.0\.1 is a loopback address/], // percent-encoded
  ['\uff11\uff12\uff17.\uff10.\uff10.\uff11', /127\.0\.0\.1 is a loopback address/], // full-width digits
  ['127.255.255.254', /is a loopback address/],
  ['[::1]', /::1 is a loopback address/],
  ['[0:0:0:0:0:0:0:1]', /::1 is a loopback address/],
  ['[::ffff:127.0.0.1]', /is a loopback address/], // IPv4-mapped IPv6
  ['[::ffff:7f00:1]', /is a loopback address/],
  ['[0:0:0:0:0:ffff:7f00:1]', /is a loopback address/],
  ['[64:ff9b::7f00:1]', /is a loopback address/], // NAT64 of loopback
  ['[2002:7f00:1::1]', /is a loopback address/], // 6to4 of loopback
  ['[::127.0.0.1]', /is a reserved address/], // IPv4-compatible (deprecated)
  ['localhost', /localhost is this machine/],
  ['LOCALHOST', /localhost is this machine/],
  ['localhost.', /localhost\. is this machine/],
  ['admin.localhost', /admin\.localhost is this machine/],
  ['a.b.LocalHost', /a\.b\.localhost is this machine/],
  ['0.0.0.0', /is an unspecified address/],
  ['0', /0\.0\.0\.0 is an unspecified address/],
  ['[::]', /is an unspecified address/],
  ['10.0.0.1', /is a private address/],
  ['172.16.0.1', /is a private address/],
  ['192.168.1.1', /is a private address/],
  ['0xa000001', /10\.0\.0\.1 is a private address/],
  ['169.254.169.254', /is a link-local address/], // cloud metadata
  ['[fe80::1]', /is a link-local address/],
  ['[fd00::1]', /is a unique-local address/],
  ['100.64.0.1', /is a shared \(CGNAT\) address/],
  ['224.0.0.1', /is a multicast address/],
  ['255.255.255.255', /is a reserved address/],
];

describe.each(testDialects())('the private-address guard through the API [%s]', (dialect) => {
  let t: TestApp;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp(dialect, { allowPrivateUrls: false, publicAddressesForTests: [PUBLIC_STAND_IN] });
    account = await t.createAccount('guard');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A create that must be refused with a 422 on url whose reason matches. */
  async function expectRefused(url: string, reason: RegExp): Promise<void> {
    const response = await call(t, account, 'POST', '/api/v1/reports', { url, privacy: 0 });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(422);
    const messages: string[] = body(response).errors.url;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^The page could not be analysed: /);
    expect(messages[0], url).toMatch(reason);
    expect(messages[0]).toMatch(/pagegrade does not analyse private networks \(an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1\)\.$/);
  }

  it('lets the stand-in public host through, by address and by name (the control)', async () => {
    for (const url of [`http://${PUBLIC_STAND_IN}:${port}/`, `http://public.test:${port}/`]) {
      const response = await call(t, account, 'POST', '/api/v1/reports', { url });
      expect(response.statusCode, response.body).toBe(201);
      await call(t, account, 'DELETE', `/api/v1/reports/${body(response).data.id}`);
    }
    expect(outside.requests).toContain(`${PUBLIC_STAND_IN}:${port}/`);
  });

  it.each(SPELLINGS)('refuses the private target http://%s/', async (host, reason) => {
    await expectRefused(`http://${host}:${port}/`, reason);
  });

  it.each([
    ['intranet.test', /intranet\.test resolves to 10\.0\.0\.7, a private address/],
    ['loop.test', /loop\.test resolves to 127\.0\.0\.1, a loopback address/],
    ['mapped.test', /mapped\.test resolves to ::ffff:127\.0\.0\.1, a loopback address/],
    ['link-local.test', /link-local\.test resolves to fe80::1, a link-local address/],
    ['mixed.test', /mixed\.test resolves to 127\.0\.0\.1, a loopback address/],
  ])('refuses %s, a name that resolves to a private address', async (host, reason) => {
    await expectRefused(`http://${host}:${port}/`, reason);
  });

  it.each([
    ['/to-loopback', /127\.0\.0\.1 is a loopback address/],
    ['/to-localhost', /localhost is this machine/],
    ['/to-decimal', /127\.0\.0\.1 is a loopback address/],
    ['/to-mapped', /is a loopback address/],
    ['/to-metadata', /169\.254\.169\.254 is a link-local address/],
    ['/to-private-name', /loop\.test resolves to 127\.0\.0\.1/],
    ['/via-public-hop', /127\.0\.0\.1 is a loopback address/],
  ])('refuses a redirect from the allowed host to a private one (%s)', async (path, reason) => {
    const before = outside.requests.length;
    await expectRefused(`http://${PUBLIC_STAND_IN}:${port}${path}`, reason);
    // The allowed host was asked (the redirect is what is refused), the private one never.
    expect(outside.requests.length).toBeGreaterThan(before);
  });

  it('checks the address it connects to when DNS answers public, then private (rebinding)', async () => {
    rebindLookups = 0;
    // The first rebind.test hop connects to the allowed address it was checked at; its redirect needs
    // a new connection, whose lookup now says 127.0.0.1.
    await expectRefused(
      `http://${PUBLIC_STAND_IN}:${port}/rebind-entry`,
      /rebind\.test resolves to 127\.0\.0\.1, a loopback address/,
    );
    expect(rebindLookups).toBe(2);
    expect(outside.requests).toContain(`rebind.test:${port}/rebind-start`);
    expect(outside.requests).not.toContain(`rebind.test:${port}/rebind-next`);
  });

  it('refuses a regenerate whose target has since become private, leaving the report as it was', async () => {
    switchAddress = PUBLIC_STAND_IN;
    const created = await call(t, account, 'POST', '/api/v1/reports', { url: `http://switch.test:${port}/` });
    expect(created.statusCode, created.body).toBe(201);
    // The create answer alone says which earlier report it repeats; a show never does.
    const { duplicate_of: _duplicateOf, ...before } = body(created).data;
    switchAddress = '127.0.0.1';
    const regenerated = await call(t, account, 'PUT', `/api/v1/reports/${before.id}`, { results: 1 });
    expect(regenerated.statusCode).toBe(422);
    expect(body(regenerated).errors.url[0]).toMatch(/switch\.test resolves to 127\.0\.0\.1/);
    const after = await call(t, account, 'GET', `/api/v1/reports/${before.id}`);
    expect(body(after).data).toEqual(before);
    await call(t, account, 'DELETE', `/api/v1/reports/${before.id}`);
  });

  it('stored nothing for any refused target, and the private server was never reached', async () => {
    expect((await listReports(t, account)).meta.total).toBe(0);
    expect((await listProjects(t, account)).meta.total).toBe(0);
    expect(inside.requests).toEqual([]);
  });
});
