// The corpus as a website on 127.0.0.1, for the create benchmark and its floor: every page under
// /pages/<file>, plus what pagegrade asks each origin for (robots.txt naming a sitemap, the sitemap,
// a favicon) and a 404 for anything else, such as pagegrade's not-found probe. Bodies go out
// uncompressed, the same bytes to pagegrade and to the floor.
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { CorpusPage } from '../test/support/corpus.ts';

export interface CorpusSite {
  origin: string;
  /** one URL per corpus page, in corpus order */
  pageUrls: string[];
  close(): Promise<void>;
}

/** A 1x1 ICO is 70 bytes; what matters to pagegrade is the 200 and the type. */
const FAVICON = Buffer.alloc(70);
const NOT_FOUND = '<!doctype html><title>Not found</title><h1>Not found</h1>';

export async function startCorpusSite(pages: readonly CorpusPage[]): Promise<CorpusSite> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pageUrls = pages.map((page) => `${origin}/pages/${encodeURIComponent(page.file)}`);
  const routes = new Map<string, { type: string; body: Buffer | string }>();
  pages.forEach((page, index) => routes.set(new URL(pageUrls[index]).pathname, { type: 'text/html; charset=utf-8', body: page.bytes }));
  routes.set('/robots.txt', { type: 'text/plain', body: `User-agent: *\nDisallow: /admin/\nSitemap: ${origin}/sitemap.xml\n` });
  routes.set('/sitemap.xml', {
    type: 'application/xml',
    body:
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      pageUrls.map((url) => `<url><loc>${url}</loc></url>`).join('\n') +
      '\n</urlset>\n',
  });
  routes.set('/favicon.ico', { type: 'image/x-icon', body: FAVICON });

  server.on('request', (request, response) => {
    const route = routes.get((request.url ?? '/').split('?')[0]);
    if (route) {
      response.writeHead(200, { 'content-type': route.type, 'content-length': Buffer.byteLength(route.body) });
      response.end(route.body);
    } else {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'content-length': NOT_FOUND.length });
      response.end(NOT_FOUND);
    }
  });
  return {
    origin,
    pageUrls,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
