import type http from 'node:http';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, testOptions, type TestServer } from '../../test/fetch/support/test-server.ts';
import { addressPolicy } from '../fetch/address-guard.ts';
import type { AuxContext } from '../fetch/aux-request.ts';
import type { FetchOptions } from '../fetch/options.ts';
import type { ParsingThreads } from '../fetch/options.ts';
import { parseSitemapBytes } from '../fetch/sitemap-xml.ts';
import { robotsSitemaps } from '../robots/robots-answer.ts';
import { readSitemapUrls, type SitemapLimits, type SitemapUrls } from './sitemap-urls.ts';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

function send(body: string | Buffer, type = 'application/xml', status = 200): Route {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };
}

function urlset(...locs: string[]): string {
  const entries = locs.map((loc) => `  <url><loc>${loc}</loc><lastmod>2024-05-01</lastmod></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

function sitemapIndex(...locs: string[]): string {
  const entries = locs.map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A site answering `routes(origin)` by path and 404 for anything else. */
async function site(routes: (origin: string) => Record<string, Route>): Promise<TestServer> {
  let table: Record<string, Route> = {};
  const server = await startServer((req, res) => {
    const route = table[req.url ?? '/'];
    if (route) route(req, res);
    else send('<h1>Not found</h1>', 'text/html', 404)(req, res);
  });
  table = routes(server.origin);
  servers.push(server);
  return server;
}

const LIMITS: SitemapLimits = { maxUrls: 1000, maxSitemaps: 50 };

function read(
  server: TestServer,
  robotsTxt: string | null,
  limits: Partial<SitemapLimits> = {},
  options: Partial<FetchOptions> = {},
): Promise<SitemapUrls> {
  const fetchOptions = testOptions(options);
  const context: AuxContext = { options: fetchOptions, policy: addressPolicy(fetchOptions), signal: AbortSignal.timeout(10_000) };
  const { host } = new URL(server.origin);
  return readSitemapUrls({ origin: server.origin, robotsTxt, host }, context, { ...LIMITS, ...limits });
}

describe('readSitemapUrls', () => {
  it('reads the <loc> of every <url> of a urlset, trimmed, decoded, absolute http(s) only, once each', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': send(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>${o}/</loc></url>
  <url>
    <loc>
      ${o}/spaced
    </loc>
  </url>
  <url><loc><![CDATA[ ${o}/cdata?a=1&b=2 ]]></loc></url>
  <url><loc>${o}/escaped?a=1&amp;b=2&#38;c=3</loc><image:image><image:loc>${o}/photo.jpg</image:loc></image:image></url>
  <url><loc>${o}/caf&#233;</loc></url>
  <url><loc>${o}/with#fragment</loc></url>
  <url><loc>${o}/</loc></url>
  <url><loc>/relative</loc></url>
  <url><loc>ftp://${new URL(o).host}/file</loc></url>
  <url><loc></loc></url>
  <url><lastmod>2024-01-01</lastmod></url>
</urlset>`),
    }));
    expect(await read(server, null)).toEqual({
      urls: [
        `${server.origin}/`,
        `${server.origin}/spaced`,
        `${server.origin}/cdata?a=1&b=2`,
        `${server.origin}/escaped?a=1&b=2&c=3`,
        `${server.origin}/caf%C3%A9`,
        `${server.origin}/with`,
      ],
      sitemaps: [{ url: `${server.origin}/sitemap.xml`, error: null }],
      unread: 0,
    });
  });

  it('reads namespace-prefixed sitemaps and a single <url> or <sitemap>', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': send(
        `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>${o}/one.xml</sm:loc></sm:sitemap></sm:sitemapindex>`,
      ),
      '/one.xml': send(`<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>${o}/only</sm:loc></sm:url></sm:urlset>`),
    }));
    expect(await read(server, null)).toEqual({
      urls: [`${server.origin}/only`],
      sitemaps: [
        { url: `${server.origin}/sitemap.xml`, error: null },
        { url: `${server.origin}/one.xml`, error: null },
      ],
      unread: 0,
    });
  });

  it('follows a sitemap index to its sitemaps, one of them gzipped', async () => {
    const server = await site((o) => ({
      '/sitemap_index.xml': send(sitemapIndex(`${o}/pages.xml`, `${o}/posts.xml.gz`)),
      '/pages.xml': send(urlset(`${o}/`, `${o}/about`)),
      '/posts.xml.gz': send(zlib.gzipSync(urlset(`${o}/posts/1`, `${o}/posts/2`)), 'application/gzip'),
    }));
    const result = await read(server, `User-agent: *\nDisallow:\n\nSitemap: ${server.origin}/sitemap_index.xml\n`);
    expect(result).toEqual({
      urls: [`${server.origin}/`, `${server.origin}/about`, `${server.origin}/posts/1`, `${server.origin}/posts/2`],
      sitemaps: [
        { url: `${server.origin}/sitemap_index.xml`, error: null },
        { url: `${server.origin}/pages.xml`, error: null },
        { url: `${server.origin}/posts.xml.gz`, error: null },
      ],
      unread: 0,
    });
  });

  it('reads a gzipped sitemap that is also sent with Content-Encoding: gzip', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(zlib.gzipSync(urlset(`${o}/twice`))));
      },
    }));
    expect((await read(server, null)).urls).toEqual([`${server.origin}/twice`]);
  });

  it('never reads the same sitemap twice: an index listing itself, a sitemap listed twice, a redirect to one listed', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': send(sitemapIndex(`${o}/sitemap.xml`, `${o}/a.xml`, `${o}/a.xml#again`, `${o}/old-b.xml`, `${o}/b.xml`)),
      '/a.xml': send(sitemapIndex(`${o}/sitemap.xml`, `${o}/a.xml`)),
      '/old-b.xml': (_req, res) => {
        res.writeHead(301, { location: '/b.xml' });
        res.end();
      },
      '/b.xml': send(urlset(`${o}/b`)),
    }));
    expect(await read(server, null)).toEqual({
      urls: [`${server.origin}/b`],
      sitemaps: [
        { url: `${server.origin}/sitemap.xml`, error: null },
        { url: `${server.origin}/a.xml`, error: null },
        // its request ended at /b.xml, so /b.xml, listed next, is not read again
        { url: `${server.origin}/old-b.xml`, error: null },
      ],
      unread: 0,
    });
    expect(server.requests).toEqual(['/sitemap.xml', '/a.xml', '/old-b.xml', '/b.xml']);
  });

  it('records a 404 sitemap with its error and reads the others', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': send(sitemapIndex(`${o}/missing.xml`, `${o}/broken.xml`, `${o}/ok.xml`)),
      '/broken.xml': send('oops', 'text/plain', 500),
      '/ok.xml': send(urlset(`${o}/ok`)),
    }));
    expect(await read(server, null)).toEqual({
      urls: [`${server.origin}/ok`],
      sitemaps: [
        { url: `${server.origin}/sitemap.xml`, error: null },
        { url: `${server.origin}/missing.xml`, error: 'The sitemap answered HTTP 404.' },
        { url: `${server.origin}/broken.xml`, error: 'The sitemap answered HTTP 500.' },
        { url: `${server.origin}/ok.xml`, error: null },
      ],
      unread: 0,
    });
  });

  it('takes nothing from a sitemap that is not well-formed XML or not a sitemap', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': send(
        sitemapIndex(`${o}/unclosed.xml`, `${o}/page.html`, `${o}/empty.xml`, `${o}/feed.xml`, `${o}/bad.xml.gz`, `${o}/ok.xml`),
      ),
      // the forgiving parser alone would still find /lost in it
      '/unclosed.xml': send(`<urlset><url><loc>${o}/lost</loc></urlset>`),
      '/page.html': send(`<!doctype html><html><body><a href="${o}/html-link">x</a></body></html>`, 'text/html'),
      '/empty.xml': send(''),
      '/feed.xml': send(`<rss version="2.0"><channel><item><link>${o}/item</link></item></channel></rss>`),
      '/bad.xml.gz': send(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02, 0x03])),
      '/ok.xml': send(urlset(`${o}/ok`)),
    }));
    expect(await read(server, null)).toEqual({
      urls: [`${server.origin}/ok`],
      sitemaps: [
        { url: `${server.origin}/sitemap.xml`, error: null },
        {
          url: `${server.origin}/unclosed.xml`,
          error: 'The sitemap is not well-formed XML: <url> is not closed.',
        },
        { url: `${server.origin}/page.html`, error: "The sitemap's root element is <html>, not <urlset> or <sitemapindex>." },
        { url: `${server.origin}/empty.xml`, error: 'The sitemap is not XML: it has no root element.' },
        { url: `${server.origin}/feed.xml`, error: "The sitemap's root element is <rss>, not <urlset> or <sitemapindex>." },
        { url: `${server.origin}/bad.xml.gz`, error: 'The sitemap is not valid gzip or larger than 1048576 bytes.' },
        { url: `${server.origin}/ok.xml`, error: null },
      ],
      unread: 0,
    });
  });

  it('records a sitemap over the size cap, and one whose gzip inflates past it', async () => {
    const big = urlset(...Array.from({ length: 200 }, (_, i) => `http://example.com/page-${i}`));
    const server = await site((o) => ({
      '/big.xml': send(big),
      '/bomb.xml.gz': send(zlib.gzipSync(big)),
      '/small.xml': send(urlset(`${o}/small`)),
    }));
    const robots = ['/big.xml', '/bomb.xml.gz', '/small.xml'].map((path) => `Sitemap: ${server.origin}${path}`).join('\n');
    expect(zlib.gzipSync(big).length).toBeLessThan(2000);
    expect(await read(server, robots, {}, { maxBytes: 2000 })).toEqual({
      urls: [`${server.origin}/small`],
      sitemaps: [
        { url: `${server.origin}/big.xml`, error: 'The response is larger than 2000 bytes.' },
        { url: `${server.origin}/bomb.xml.gz`, error: 'The sitemap is not valid gzip or larger than 2000 bytes.' },
        { url: `${server.origin}/small.xml`, error: null },
      ],
      unread: 0,
    });
  });

  it('records an unreachable sitemap and a sitemap the address guard refuses', async () => {
    const closed = await startServer(() => {});
    await closed.close();
    const server = await site((o) => ({
      '/sitemap.xml': send(sitemapIndex(`${closed.origin}/sitemap.xml`, `http://localhost:${new URL(o).port}/private.xml`, `${o}/ok.xml`)),
      '/private.xml': send(urlset(`${o}/private`)),
      '/ok.xml': send(urlset(`${o}/ok`)),
    }));
    // 127.0.0.1 stands for a public address here; localhost is refused before any request.
    const result = await read(server, null, {}, { allowPrivate: false, publicAddressesForTests: ['127.0.0.1'] });
    expect(result).toEqual({
      urls: [`${server.origin}/ok`],
      sitemaps: [
        { url: `${server.origin}/sitemap.xml`, error: null },
        { url: `${closed.origin}/sitemap.xml`, error: `The server at 127.0.0.1:${closed.port} refused the connection.` },
        {
          url: `http://localhost:${server.port}/private.xml`,
          error: 'localhost is this machine; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).',
        },
        { url: `${server.origin}/ok.xml`, error: null },
      ],
      unread: 0,
    });
    expect(server.requests).toEqual(['/sitemap.xml', '/ok.xml']);
  });

  it('keeps only URLs on the given host, wherever the sitemap itself is', async () => {
    const other = await site((o) => ({ '/cdn-sitemap.xml': send(urlset(`${o}/cdn-own-page`, 'http://127.0.0.1:1/x')) }));
    const server = await site((o) => {
      const { port } = new URL(o);
      return {
        '/sitemap.xml': send(
          urlset(
            `${o}/kept`,
            'https://example.com/elsewhere',
            `http://localhost:${port}/same-port-other-name`,
            `http://127.0.0.1:${other.port}/other-port`,
            `http://sub.127.0.0.1:${port}/subdomain`,
            `HTTP://127.0.0.1:${port}/Case`,
            `https://127.0.0.1:${port}/https-same-host`,
            `http://user:secret@127.0.0.1:${port}/with-credentials`,
            `http://127.0.0.1:${port}/${'long/'.repeat(500)}`,
          ),
        ),
      };
    });
    const robots = `Sitemap: ${server.origin}/sitemap.xml\nSitemap: ${other.origin}/cdn-sitemap.xml\n`;
    expect(await read(server, robots)).toEqual({
      urls: [`${server.origin}/kept`, `${server.origin}/Case`, `https://127.0.0.1:${server.port}/https-same-host`],
      sitemaps: [
        { url: `${server.origin}/sitemap.xml`, error: null },
        { url: `${other.origin}/cdn-sitemap.xml`, error: null },
      ],
      unread: 0,
    });
  });

  it('stops at maxUrls URLs and reads no sitemap after that', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': send(sitemapIndex(`${o}/1.xml`, `${o}/2.xml`, `${o}/3.xml`)),
      '/1.xml': send(urlset(`${o}/a`, `${o}/b`, `${o}/a`)),
      '/2.xml': send(urlset(`${o}/c`, `${o}/d`, `${o}/e`)),
      '/3.xml': send(urlset(`${o}/f`)),
    }));
    expect(await read(server, null, { maxUrls: 3 })).toEqual({
      urls: [`${server.origin}/a`, `${server.origin}/b`, `${server.origin}/c`],
      sitemaps: [
        { url: `${server.origin}/sitemap.xml`, error: null },
        { url: `${server.origin}/1.xml`, error: null },
        { url: `${server.origin}/2.xml`, error: null },
      ],
      unread: 1,
    });
    expect(server.requests).not.toContain('/3.xml');
  });

  it('reads at most maxSitemaps sitemap files, the index included', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': send(sitemapIndex(`${o}/1.xml`, `${o}/2.xml`, `${o}/3.xml`)),
      '/1.xml': send(urlset(`${o}/a`)),
      '/2.xml': send(urlset(`${o}/b`)),
      '/3.xml': send(urlset(`${o}/c`)),
    }));
    expect(await read(server, null, { maxSitemaps: 3 })).toEqual({
      urls: [`${server.origin}/a`, `${server.origin}/b`],
      sitemaps: [
        { url: `${server.origin}/sitemap.xml`, error: null },
        { url: `${server.origin}/1.xml`, error: null },
        { url: `${server.origin}/2.xml`, error: null },
      ],
      unread: 1,
    });
  });

  it('reads every sitemap robots.txt lists, in order, and not /sitemap.xml then', async () => {
    const server = await site((o) => ({
      '/sitemap.xml': send(urlset(`${o}/default`)),
      '/sitemap-pages.xml': send(urlset(`${o}/page`)),
      '/sitemap-posts.xml': send(urlset(`${o}/post`)),
    }));
    const robots = [
      'User-agent: *',
      'Disallow: /private',
      `Sitemap: ${server.origin}/sitemap-posts.xml`,
      'Sitemap: /relative.xml', // not absolute: robots.txt allows none (flagged by robots_txt_valid)
      `site-map: ${server.origin}/sitemap-pages.xml`, // a misspelling Googlebot obeys
      `Sitemap: ${server.origin}/sitemap-posts.xml`,
    ].join('\n');
    expect(await read(server, robots)).toEqual({
      urls: [`${server.origin}/post`, `${server.origin}/page`],
      sitemaps: [
        { url: `${server.origin}/sitemap-posts.xml`, error: null },
        { url: `${server.origin}/sitemap-pages.xml`, error: null },
      ],
      unread: 0,
    });
    expect(server.requests).toEqual(['/sitemap-posts.xml', '/sitemap-pages.xml']);
  });

  it('falls back to /sitemap.xml without robots.txt or when it lists no http(s) sitemap', async () => {
    const server = await site((o) => ({ '/sitemap.xml': send(urlset(`${o}/`, `${o}/default`)) }));
    const expected: SitemapUrls = {
      urls: [`${server.origin}/`, `${server.origin}/default`],
      sitemaps: [{ url: `${server.origin}/sitemap.xml`, error: null }],
      unread: 0,
    };
    expect(await read(server, null)).toEqual(expected);
    expect(await read(server, 'User-agent: *\nDisallow: /private\n')).toEqual(expected);
    expect(await read(server, 'Sitemap: ftp://127.0.0.1/sitemap.xml\nSitemap: /relative.xml\n')).toEqual(expected);
  });

  it('reports a missing /sitemap.xml as its 404', async () => {
    const server = await site(() => ({}));
    expect(await read(server, null)).toEqual({
      urls: [],
      sitemaps: [{ url: `${server.origin}/sitemap.xml`, error: 'The sitemap answered HTTP 404.' }],
      unread: 0,
    });
  });

  it('parses robots.txt and every sitemap on the parsing threads the options name, a hreflang sitemap included', async () => {
    const server = await site((o) => ({
      '/index.xml': send(sitemapIndex(`${o}/pages.xml`)),
      '/pages.xml': send(
        `<urlset xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>${o}/en</loc><xhtml:link rel="alternate" hreflang="de" href="${o}/de"/></url></urlset>`,
      ),
    }));
    const asked: string[] = [];
    const pool: ParsingThreads = {
      parseSitemap: async (bytes, label) => (asked.push(`sitemap ${bytes.length}`), parseSitemapBytes(bytes, label)),
      robotsSitemaps: async (text) => (asked.push('robots'), robotsSitemaps(text)),
    };
    expect((await read(server, `Sitemap: ${server.origin}/index.xml\n`, {}, { pool })).urls).toEqual([`${server.origin}/en`]);
    expect(asked).toEqual(['robots', expect.stringMatching(/^sitemap \d+$/), expect.stringMatching(/^sitemap \d+$/)]);
  });
});
