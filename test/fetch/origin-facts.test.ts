import type http from 'node:http';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache, gatherOriginFacts } from '../../src/fetch/origin-facts.ts';
import { sendHtml, startServer, testOptions, type ServerOptions, type TestServer } from './support/test-server.ts';

type Routes = Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>;

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc></url>
  <url><loc>https://example.com/a</loc></url>
  <url><loc>https://example.com/b</loc></url>
</urlset>`;

function text(body: string | Buffer, type = 'text/plain', status = 200) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };
}

const servers: TestServer[] = [];
/** A server answering `routes` by path (without query) and 404 for anything else. */
async function origin(routes: Routes, options: ServerOptions = {}): Promise<TestServer> {
  const server = await startServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes[path] ?? (path.startsWith('/pagegrade-404-') ? routes['/probe'] : undefined);
    if (route) route(req, res);
    else sendHtml(res, '<title>Not found</title>', {}, 404);
  }, options);
  servers.push(server);
  return server;
}

beforeEach(() => clearOriginFactsCache());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('gatherOriginFacts', () => {
  it('gathers robots.txt, the probe, the favicon and the sitemap of a well-kept origin', async () => {
    const server = await origin({
      '/robots.txt': text(`User-agent: *\nDisallow: /private\n\nSitemap: /sitemaps/main.xml\n`),
      '/sitemaps/main.xml': text(SITEMAP, 'application/xml'),
      '/favicon.ico': text(Buffer.from([0, 0, 1, 0]), 'image/x-icon'),
    });
    const facts = await gatherOriginFacts(`${server.origin}/some/page?q=1`, testOptions());
    expect(facts.origin).toBe(server.origin);
    expect(facts.robotsTxt).toEqual({
      url: `${server.origin}/robots.txt`,
      statusCode: 200,
      finalUrl: `${server.origin}/robots.txt`,
      redirected: false,
      contentType: 'text/plain',
      body: 'User-agent: *\nDisallow: /private\n\nSitemap: /sitemaps/main.xml\n',
      error: null,
    });
    expect(facts.notFoundProbe).toMatchObject({ statusCode: 404, redirected: false, error: null });
    expect(facts.notFoundProbe.url).toMatch(new RegExp(`^${server.origin}/pagegrade-404-[0-9a-f]{16}$`));
    expect(facts.faviconIco).toMatchObject({ statusCode: 200, contentType: 'image/x-icon', body: null, error: null });
    expect(facts.sitemap).toMatchObject({
      url: `${server.origin}/sitemaps/main.xml`,
      statusCode: 200,
      source: 'robots',
      validXml: true,
      urlCount: 3,
    });
    expect(facts.http2).toBeNull();
  });

  it('reports a missing robots.txt as its 404, without a body', async () => {
    const server = await origin({});
    const facts = await gatherOriginFacts(`${server.origin}/`, testOptions());
    expect(facts.robotsTxt).toMatchObject({ statusCode: 404, body: null, error: null });
    expect(facts.faviconIco.statusCode).toBe(404);
    expect(facts.sitemap).toBeNull();
  });

  it('reports a failing robots.txt as its 500', async () => {
    const server = await origin({ '/robots.txt': text('oops', 'text/plain', 500) });
    expect((await gatherOriginFacts(`${server.origin}/`, testOptions())).robotsTxt).toMatchObject({ statusCode: 500, body: null });
  });

  it('describes a robots.txt that could not be fetched', async () => {
    const server = await origin({ '/robots.txt': (req) => req.socket.destroy() });
    const facts = await gatherOriginFacts(`${server.origin}/`, testOptions());
    expect(facts.robotsTxt.statusCode).toBeNull();
    expect(facts.robotsTxt.error).toMatch(/closed unexpectedly/);
  });

  it('never throws, even when the whole origin is unreachable', async () => {
    const closed = await startServer(() => {});
    await closed.close();
    const facts = await gatherOriginFacts(`${closed.origin}/`, testOptions());
    for (const aux of [facts.robotsTxt, facts.notFoundProbe, facts.faviconIco, facts.llmsTxt]) {
      expect(aux.statusCode).toBeNull();
      expect(aux.error).toBe(`The server at 127.0.0.1:${closed.port} refused the connection.`);
    }
    // No candidate answered: the failed attempt is reported, so the check can say it could not tell.
    expect(facts.sitemap).toMatchObject({ statusCode: null, validXml: false, source: 'default' });
    expect(facts.sitemap?.error).toBe(`The server at 127.0.0.1:${closed.port} refused the connection.`);
  });

  it('keeps only the first 512 KiB of a huge robots.txt, ending on a whole line', async () => {
    const line = 'Disallow: /some/long/path/that/repeats\n';
    const server = await origin({ '/robots.txt': text(`User-agent: *\n${line.repeat(20_000)}`) });
    const body = (await gatherOriginFacts(`${server.origin}/`, testOptions())).robotsTxt.body ?? '';
    expect(body.length).toBeLessThanOrEqual(512 * 1024);
    expect(body.length).toBeGreaterThan(500 * 1024);
    expect(body.endsWith(line)).toBe(true);
  });

  it('reads /llms.txt once per origin, decoded, with its type', async () => {
    const llms = '# Café Example\n\n> Coffee, roasted in Zürich.\n\n## Docs\n\n- [Menu](/menu.md)\n';
    const server = await origin({ '/llms.txt': text(Buffer.from(llms, 'latin1'), 'text/plain; charset=iso-8859-1') });
    const facts = await gatherOriginFacts(`${server.origin}/a`, testOptions());
    expect(facts.llmsTxt).toEqual({
      url: `${server.origin}/llms.txt`,
      statusCode: 200,
      finalUrl: `${server.origin}/llms.txt`,
      redirected: false,
      contentType: 'text/plain; charset=iso-8859-1',
      body: llms,
      error: null,
    });
    await gatherOriginFacts(`${server.origin}/b`, testOptions());
    expect(server.requests.filter((path) => path === '/llms.txt')).toHaveLength(1);
  });

  it('reports a missing llms.txt as its 404, without a body', async () => {
    const server = await origin({});
    expect((await gatherOriginFacts(`${server.origin}/`, testOptions())).llmsTxt).toMatchObject({ statusCode: 404, body: null });
  });

  it('keeps only the first 512 KiB of a huge llms.txt, ending on a whole line', async () => {
    const line = '- [A page](https://example.com/a/page/with/a/long/path.md): notes\n';
    const server = await origin({ '/llms.txt': text(`# Big\n\n## Pages\n${line.repeat(10_000)}`) });
    const body = (await gatherOriginFacts(`${server.origin}/`, testOptions())).llmsTxt.body ?? '';
    expect(body.length).toBeLessThanOrEqual(512 * 1024);
    expect(body.length).toBeGreaterThan(500 * 1024);
    expect(body.endsWith(line)).toBe(true);
  });

  it('gives up on an llms.txt that never answers at the origin\'s one deadline', async () => {
    const server = await origin({ '/llms.txt': () => {} });
    const started = performance.now();
    const facts = await gatherOriginFacts(`${server.origin}/`, testOptions({ timeoutMs: 300 }));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(facts.llmsTxt).toMatchObject({ statusCode: null, body: null });
    expect(facts.llmsTxt.error).toMatch(/300 ms|timed out|time/i);
    expect(facts.robotsTxt.statusCode).toBe(404);
  });

  it('asks llms.txt through the private-address guard like every other request', async () => {
    const server = await origin({ '/llms.txt': text('# Secret\n') });
    const refused = await gatherOriginFacts(`${server.origin}/`, testOptions({ allowPrivate: false }));
    expect(refused.llmsTxt).toMatchObject({ statusCode: null, body: null });
    expect(refused.llmsTxt.error).toMatch(/loopback address/);
    expect(server.requests).not.toContain('/llms.txt');
  });

  it('sees a soft 404: the probe answered 200', async () => {
    const server = await origin({ '/probe': (_req, res) => sendHtml(res, '<title>Home</title>') });
    expect((await gatherOriginFacts(`${server.origin}/`, testOptions())).notFoundProbe).toMatchObject({
      statusCode: 200,
      redirected: false,
    });
  });

  it('follows a probe redirected to the home page and records where it ended', async () => {
    const server = await origin({
      '/probe': (_req, res) => {
        res.writeHead(302, { location: '/' });
        res.end();
      },
      '/': (_req, res) => sendHtml(res, '<title>Home</title>'),
    });
    const probe = (await gatherOriginFacts(`${server.origin}/`, testOptions())).notFoundProbe;
    expect(probe).toMatchObject({ statusCode: 200, redirected: true, finalUrl: `${server.origin}/` });
  });

  it('finds /sitemap.xml when robots.txt names none', async () => {
    const server = await origin({ '/sitemap.xml': text(SITEMAP, 'text/xml') });
    expect((await gatherOriginFacts(`${server.origin}/`, testOptions())).sitemap).toMatchObject({
      url: `${server.origin}/sitemap.xml`,
      source: 'default',
      validXml: true,
      urlCount: 3,
    });
  });

  it('falls back to /sitemap.xml when the robots.txt sitemap is missing', async () => {
    const server = await origin({
      '/robots.txt': text('Sitemap: /gone.xml\n'),
      '/sitemap.xml': text(SITEMAP, 'text/xml'),
    });
    expect((await gatherOriginFacts(`${server.origin}/`, testOptions())).sitemap).toMatchObject({ source: 'default', validXml: true });
  });

  it('reads a gzipped sitemap named in robots.txt', async () => {
    const server = await origin({
      '/robots.txt': text('Sitemap: /sitemap.xml.gz\n'),
      '/sitemap.xml.gz': text(zlib.gzipSync(SITEMAP), 'application/gzip'),
    });
    expect((await gatherOriginFacts(`${server.origin}/`, testOptions())).sitemap).toMatchObject({
      source: 'robots',
      validXml: true,
      urlCount: 3,
    });
  });

  it('marks a sitemap that is not valid XML', async () => {
    const server = await origin({ '/sitemap.xml': text('<urlset><url><loc>https://example.com/</loc></urlset>', 'application/xml') });
    expect((await gatherOriginFacts(`${server.origin}/`, testOptions())).sitemap).toMatchObject({
      statusCode: 200,
      validXml: false,
    });
  });

  it('reports a sitemap larger than the size cap as found but unreadable', async () => {
    const server = await origin({ '/sitemap.xml': text(SITEMAP.repeat(10), 'application/xml') });
    const sitemap = (await gatherOriginFacts(`${server.origin}/`, testOptions({ maxBytes: 1000 }))).sitemap;
    expect(sitemap).toMatchObject({ statusCode: null, validXml: false, error: 'The response is larger than 1000 bytes.' });
  });

  it('answers from the cache for a while: a second report on the origin makes no requests', async () => {
    const server = await origin({ '/robots.txt': text('User-agent: *\n') });
    const first = await gatherOriginFacts(`${server.origin}/a`, testOptions());
    const requestsAfterFirst = server.requests.length;
    expect(requestsAfterFirst).toBe(5); // robots.txt, probe, favicon, llms.txt, /sitemap.xml
    const second = await gatherOriginFacts(`${server.origin}/b`, testOptions());
    expect(server.requests.length).toBe(requestsAfterFirst);
    expect(second).toEqual(first);
  });

  it('shares one set of requests between concurrent reports', async () => {
    const server = await origin({
      '/robots.txt': (_req, res) => setTimeout(() => text('User-agent: *\n')(_req, res), 50),
    });
    await Promise.all(Array.from({ length: 16 }, (_, i) => gatherOriginFacts(`${server.origin}/page-${i}`, testOptions())));
    expect(server.requests.filter((path) => path === '/robots.txt')).toHaveLength(1);
    expect(server.requests.filter((path) => path === '/llms.txt')).toHaveLength(1);
    expect(server.requests.length).toBe(5);
  });

  it('keeps separate entries for different private-address policies', async () => {
    const server = await origin({});
    const allowed = await gatherOriginFacts(`${server.origin}/`, testOptions());
    const refused = await gatherOriginFacts(`${server.origin}/`, testOptions({ allowPrivate: false }));
    expect(allowed.robotsTxt.statusCode).toBe(404);
    expect(refused.robotsTxt.statusCode).toBeNull();
    expect(refused.robotsTxt.error).toBe('127.0.0.1 is a loopback address; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).');
    expect(refused.http2).toBeNull();
  });

  it('tells whether an https origin negotiates HTTP/2', async () => {
    const h2 = await origin({}, { protocol: 'h2' });
    const h1 = await origin({}, { protocol: 'https' });
    expect((await gatherOriginFacts(`${h2.origin}/`, testOptions())).http2).toBe(true);
    expect((await gatherOriginFacts(`${h1.origin}/`, testOptions())).http2).toBe(false);
  });
});
