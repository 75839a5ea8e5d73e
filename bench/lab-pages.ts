// The lab benchmark's fixture pages on 127.0.0.1, each made so that one verdict is clear-cut under
// the mobile profile: a hero image that arrives late (LCP), a block injected after load (CLS), a busy
// script (TBT), a heavy image (page weight), planted accessibility defects, and a clean page.
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface LabSite {
  origin: string;
  /** one URL a fixture page */
  pageUrls: string[];
  close(): Promise<void>;
}

const page = (body: string, lang = ' lang="en"') =>
  `<!doctype html><html${lang}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>Lab fixture</title></head><body>${body}</body></html>`;
/** An SVG of the size given, padded so that Chromium does not take it for a placeholder (never an LCP). */
const svg = (width: number, height: number, padding: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#36c"/><!--${'x'.repeat(padding)}--></svg>`;

const PAGES: Record<string, string> = {
  '/clean': page('<main><h1>A clean page</h1><p>Nothing moves, nothing blocks, nothing is late.</p></main>'),
  '/late-hero': page('<main><h1>Hero</h1><img id="hero" src="/late/hero.svg" alt="The hero" width="400" height="300"></main>'),
  '/shifting': page(
    '<main><h1>Shifting</h1><div id="slot"></div><p style="height: 600px">The text that is pushed down.</p></main>' +
      "<script>addEventListener('load', () => setTimeout(() => { const block = document.createElement('div'); block.style.height = '400px'; document.getElementById('slot').append(block); }, 300));</script>",
  ),
  '/busy': page(
    '<main><h1>Busy</h1><p>A script keeps the main thread for a while after the first paint.</p></main>' +
      '<script>requestAnimationFrame(() => setTimeout(() => { const end = performance.now() + 250; while (performance.now() < end); }, 100));</script>',
  ),
  '/heavy': page('<main><h1>Heavy</h1><img src="/heavy.svg" alt="A heavy picture" width="100" height="100"></main>'),
  '/defects': page(
    '<main><h1>Defects</h1><img src="/small.svg"><input type="text"><button></button><a href="/clean"></a>' +
      '<p style="color: #bbb; background: #fff">Text of too little contrast.</p></main>',
    '',
  ),
};

const ASSETS: Record<string, string> = {
  '/late/hero.svg': svg(400, 300, 5_000),
  '/heavy.svg': svg(100, 100, 2_000_000),
  '/small.svg': svg(40, 40, 100),
};
/** How late the hero image answers: well past the LCP limit of 2.5 s, with the mobile profile's latency on top. */
const LATE_MS = 3_000;

export async function startLabSite(): Promise<LabSite> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const html = PAGES[path];
    if (html !== undefined) return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    const asset = ASSETS[path];
    if (asset === undefined) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    const send = () => response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(asset);
    if (path.startsWith('/late/')) setTimeout(send, LATE_MS);
    else send();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pageUrls: Object.keys(PAGES).map((path) => `${origin}${path}`),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
