// A small website on 127.0.0.1 for tests that fetch pages: each route is a function of the request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface Site {
  /** http://127.0.0.1:<port> */
  origin: string;
  url(path: string): string;
  /** Replace or add a route while the site runs. */
  route(path: string, handler: Handler): void;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

export function html(body: string, status = 200, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    response.end(body);
  };
}

export function text(body: string, contentType = 'text/plain', status = 200): Handler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': contentType });
    response.end(body);
  };
}

/** A complete, well-made page that passes most checks. */
export function goodPage(title = 'A well made page about fresh mountain coffee'): string {
  const words = Array.from({ length: 320 }, (_, i) => `coffee${i % 7 === 0 ? ' mountain' : ''} beans`).join(' ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>${title}</title>
<meta name="description" content="Everything about fresh mountain coffee: where it grows, how it is roasted and brewed.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.ico">
<meta property="og:title" content="Mountain coffee"><meta property="og:description" content="Fresh coffee">
<meta property="og:image" content="https://cdn.example.com/coffee.webp"><meta name="twitter:card" content="summary">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Coffee"}</script>
</head><body><h1>Mountain coffee</h1><h2>Where it grows</h2><p>${words}</p>
<img src="/coffee.webp" alt="A cup of coffee" width="600" height="400">
<a href="/about">About our roastery</a> <a href="https://x.com/pagegrade">Follow us</a>
</body></html>`;
}

/** A good page titled `title` that also links to `links` (a page of a crawled site). */
export function linkingPage(title: string, links: string[]): string {
  return goodPage(title).replace('</body>', `${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</body>`);
}

let freshPages = 0;

/** Serves a good page at a path no test has used yet (so a test can change its own page); its path. */
export function routeFreshGoodPage(site: Site): string {
  freshPages += 1;
  const path = `/page-${freshPages}`;
  site.route(path, html(goodPage()));
  return path;
}

/** A page at a path of its own whose content the test changes between analyses. */
export function editablePage(site: Site, content: string): { url: string; set(next: string): void } {
  const path = routeFreshGoodPage(site);
  site.route(path, html(content));
  return { url: site.url(path), set: (next) => site.route(path, html(next)) };
}

/**
 * Holds answers back until release(), so a test can watch what happens while a page is being fetched
 * (a report being analysed, a process killed mid-analysis). Once released, every answer goes at once.
 */
export function holdGate(): { hold(handler: Handler): Handler; release(): void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return { hold: (handler) => (request, response) => void released.then(() => handler(request, response)), release };
}

export async function startSite(routes: Record<string, Handler> = {}): Promise<Site> {
  const table = new Map<string, Handler>(Object.entries(routes));
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    requests.push(path);
    const handler = table.get(path);
    if (handler) return handler(request, response);
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    route: (path, handler) => void table.set(path, handler),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
