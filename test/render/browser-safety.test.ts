// The browser is the riskiest thing pagegrade runs. Through the API, with private addresses refused
// as on a real server: a page's scripts reaching for a private address in every way a page can are
// all stopped, and the private listener never sees a connection (nor a UDP packet); a page that loops
// forever fails its rendering with a reason, and the browser pool goes on rendering; downloads and
// popups go nowhere.
//
// 127.0.0.2 stands in for a public host (the publicAddressesForTests seam) and serves the pages;
// 127.0.0.1 is the private network, listening on the same port (TCP and UDP), so a guard that
// checked one address and connected to another would reach it. intranet.test is answered by a
// resolver the test controls, put in place of the proxy's.
import dns from 'node:dns';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { body, call, type Account } from '../support/api-fixtures.ts';
import { chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';

const PUBLIC_STAND_IN = '127.0.0.2';
const RENDER_TEST_MS = 90_000;
/** The page deadline of this app: short, so the page that loops fails soon. */
const TIMEOUT_MS = 4_000;

/** Every way a page's scripts can make the browser connect somewhere, all aimed at the private listener. */
function reachingPage(port: number): string {
  const inside = `127.0.0.1:${port}`;
  return `<!doctype html><html><head><title>Public page</title>
<link rel="stylesheet" href="http://${inside}/style.css">
<script src="http://${inside}/script.js"></script>
</head><body><h1>Reaching in</h1>
<iframe src="http://${inside}/frame"></iframe>
<iframe src="/frame-with-private-child"></iframe>
<img src="http://${inside}/image.png">
<script>
  document.title = 'Public page after JavaScript';
  const quietly = (work) => { try { work().catch?.(() => {}); } catch {} };
  quietly(() => fetch('http://${inside}/fetch'));
  quietly(() => fetch('http://localhost:${port}/by-name'));
  quietly(() => fetch('http://intranet.test:${port}/resolved-privately'));
  quietly(() => fetch('http://[::ffff:127.0.0.1]:${port}/mapped'));
  quietly(() => fetch('http://2130706433:${port}/decimal'));
  quietly(() => fetch('/redirect-inside'));
  quietly(() => fetch('https://${inside}/tls'));
  quietly(() => { const xhr = new XMLHttpRequest(); xhr.open('GET', 'http://${inside}/xhr'); xhr.send(); });
  quietly(() => new WebSocket('ws://${inside}/socket'));
  quietly(() => new EventSource('http://${inside}/events'));
  quietly(() => navigator.sendBeacon('http://${inside}/beacon', 'x'));
  quietly(() => { const image = new Image(); image.src = 'http://${inside}/pixel'; });
  quietly(async () => {
    const peer = new RTCPeerConnection({ iceServers: [{ urls: 'stun:${inside}' }, { urls: 'turn:${inside}', username: 'u', credential: 'c' }] });
    peer.createDataChannel('x');
    await peer.setLocalDescription(await peer.createOffer());
  });
  fetch('/scripts-ran').catch(() => {});
</script></body></html>`;
}

/** A page whose own script sends the whole page to the private address. */
function leavingPage(port: number): string {
  return `<!doctype html><title>Leaving</title><script>location.href = 'http://127.0.0.1:${port}/navigated';</script>`;
}

const LOOPING_PAGE = '<!doctype html><title>Forever</title><h1>Forever</h1><script>for (;;) {}</script>';

const PLAIN_PAGE = '<!doctype html><html lang="en"><head><title>A plain page rendered after the loop</title></head><body><h1>Plain</h1><a href="/a">A</a></body></html>';

/** A page that starts a download and opens a popup, whose own script would report that it ran. */
const DOWNLOAD_AND_POPUP_PAGE = `<!doctype html><title>Downloads and popups</title><h1>Downloads and popups</h1>
<a id="download" href="/file.bin" download>The file</a>
<script>
  document.getElementById('download').click();
  window.open('/popup', '_blank');
  window.open('/popup', 'named', 'width=300,height=300');
</script>`;
const POPUP_PAGE = '<!doctype html><title>Popup</title><script>setTimeout(() => fetch("/popup-ran"), 300);</script>';

interface Site {
  server: Server;
  port: number;
  requests: string[];
  downloads: { started: number; finished: number };
}

async function startPublicSite(port: number, routes: (port: number) => Record<string, string>): Promise<Site> {
  const requests: string[] = [];
  const downloads = { started: 0, finished: 0 };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0];
    requests.push(path);
    if (path === '/redirect-inside') {
      response.writeHead(302, { location: `http://127.0.0.1:${port}/after-redirect` }).end();
      return;
    }
    if (path === '/file.bin') {
      // 32 MB, written as the reader takes it: only a download that was accepted would read it all.
      downloads.started += 1;
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="file.bin"' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      let left = 512;
      const write = () => {
        while (left > 0) {
          left -= 1;
          if (left === 0) {
            response.end(chunk, () => (downloads.finished += 1));
            return;
          }
          if (!response.write(chunk)) return void response.once('drain', write);
        }
      };
      write();
      return;
    }
    const page = routes(port)[path];
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(port, PUBLIC_STAND_IN, resolve));
  return { server, port: (server.address() as AddressInfo).port, requests, downloads };
}

whenChromiumMissing('the browser, attacked');

describe.runIf(chromiumInstalled)('the browser, attacked', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;
  /** The private network: what it sees is a leak. */
  let insideTcp: TcpServer;
  let insideUdp: UdpSocket;
  const insideConnections: string[] = [];
  const insidePackets: number[] = [];
  let resolving: { mock: { calls: unknown[][] } };

  beforeAll(async () => {
    // The private listener first, on a free port; the public site then takes the same port on 127.0.0.2.
    insideTcp = createTcpServer((socket) => {
      insideConnections.push(`${socket.remoteAddress}:${socket.remotePort}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => insideTcp.listen(0, '127.0.0.1', resolve));
    const port = (insideTcp.address() as AddressInfo).port;
    insideUdp = createSocket('udp4');
    insideUdp.on('message', (message) => insidePackets.push(message.length));
    await new Promise<void>((resolve) => insideUdp.bind(port, '127.0.0.1', resolve));
    site = await startPublicSite(port, (sitePort) => ({
      '/reach': reachingPage(sitePort),
      '/frame-with-private-child': `<iframe src="http://127.0.0.1:${sitePort}/grandchild"></iframe>`,
      '/leave': leavingPage(sitePort),
      '/loop': LOOPING_PAGE,
      '/plain': PLAIN_PAGE,
      '/download-and-popup': DOWNLOAD_AND_POPUP_PAGE,
      '/popup': POPUP_PAGE,
    }));

    // The browser's proxy resolves names with c-ares (guarded-proxy.ts): intranet.test answers privately.
    const resolve4 = dns.Resolver.prototype.resolve4;
    resolving = vi.spyOn(dns.Resolver.prototype, 'resolve4').mockImplementation(function (this: dns.Resolver, hostname: string, ...rest: unknown[]) {
      const callback = rest.at(-1) as (error: NodeJS.ErrnoException | null, records: dns.RecordWithTtl[]) => void;
      if (hostname === 'intranet.test') return void queueMicrotask(() => callback(null, [{ address: '127.0.0.1', ttl: 60 }]));
      return (resolve4 as (...args: unknown[]) => void).call(this, hostname, ...rest);
    } as typeof resolve4);

    t = await startTestApp('sqlite', { allowPrivateUrls: false, publicAddressesForTests: [PUBLIC_STAND_IN], fetchTimeoutMs: TIMEOUT_MS });
    account = await t.createAccount();
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
    site?.server.closeAllConnections();
    await new Promise((resolve) => site?.server.close(resolve));
    await new Promise((resolve) => insideTcp?.close(resolve));
    insideUdp?.close();
  });

  const render = async (path: string) => {
    const response = await call(t, account, 'POST', '/api/v1/reports', { url: `http://${PUBLIC_STAND_IN}:${site.port}${path}`, render: 1 });
    expect(response.statusCode, response.body).toBe(201);
    return body(response).data;
  };

  it('stops every request a page makes to a private address, the listener never contacted', { timeout: RENDER_TEST_MS }, async () => {
    const report = await render('/reach');
    // The page rendered, its scripts ran, and what they asked of the public site went through.
    expect(report.rendered.title).toEqual({ raw: 'Public page', rendered: 'Public page after JavaScript' });
    expect(site.requests).toEqual(expect.arrayContaining(['/reach', '/redirect-inside', '/frame-with-private-child', '/scripts-ran']));
    // A moment for anything late (a retry, a STUN packet) to arrive, had it been let through.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(insideConnections).toEqual([]);
    expect(insidePackets).toEqual([]);
    // The name was resolved by the guard (to the private address it then refused), not by Chromium.
    expect(resolving.mock.calls.map(([hostname]) => hostname)).toContain('intranet.test');
  });

  it('fails the rendering of a page that sends itself to a private address, and only that', { timeout: RENDER_TEST_MS }, async () => {
    const report = await render('/leave');
    expect(report.rendered).toEqual({ error: expect.stringMatching(/^127\.0\.0\.1 is a loopback address; pagegrade does not analyse private networks/) });
    expect(report.results.javascript_dependency).toMatchObject({ passed: null, reason: expect.stringContaining('could not be rendered') });
    expect(report.results.title.value).toMatchObject({ title: 'Leaving' });
    expect(insideConnections).toEqual([]);
  });

  it('fails a page that loops forever with the deadline as its reason; the pool renders the next pages', { timeout: RENDER_TEST_MS }, async () => {
    const started = performance.now();
    const looping = await render('/loop');
    expect(looping.rendered).toEqual({ error: `The page did not finish loading in the browser within ${TIMEOUT_MS} ms.` });
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 15_000);
    // Both browsers of the default pool, busy at once, after the loop.
    const [first, second] = await Promise.all([render('/plain'), render('/plain')]);
    for (const report of [first, second]) expect(report.rendered.h1).toEqual({ raw: ['Plain'], rendered: ['Plain'] });
  });

  it('accepts no download and closes popups before their scripts run', { timeout: RENDER_TEST_MS }, async () => {
    const report = await render('/download-and-popup');
    expect(report.rendered.title.rendered).toBe('Downloads and popups');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(site.requests).not.toContain('/popup-ran');
    expect(site.downloads.finished).toBe(0);
  });
});
