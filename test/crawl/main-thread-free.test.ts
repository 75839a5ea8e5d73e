// What a crawled site may make large (a robots.txt of 500 KiB of wildcard rules, sitemaps of megabytes)
// is parsed and matched on the analysis pool's threads: the main thread, which answers GET /health,
// stays free meanwhile (docs/crawls.md, "Bounds").
import { afterEach, describe, expect, it } from 'vitest';
import { analysisPool } from '../../src/analysis/analysis-pool.ts';
import { loadCrawlRobots } from '../../src/crawl/crawl-robots.ts';
import { readSitemapUrls } from '../../src/crawl/sitemap-urls.ts';
import { addressPolicy } from '../../src/fetch/address-guard.ts';
import { startServer, testOptions, type TestServer } from '../fetch/support/test-server.ts';
import { mainThreadStall } from '../support/main-thread-stall.ts';

const AGENT = 'pagegrade';
/**
 * The most the main thread may work between two turns of a 10 ms timer: far below the 1 s /health must
 * answer in, and measured as its own CPU time, so a busy machine's late timers do not count.
 */
const MAX_BUSY_MS = 100;

/** About 500 KiB: 2,000 rules of 120 wildcards each, and one that decides. */
function wildcardRobotsTxt(): string {
  const lines = ['User-agent: *'];
  for (let i = 0; lines.length < 2000; i++) lines.push(`Disallow: /${'*a'.repeat(119)}*${i.toString(36)}z`);
  lines.push('Disallow: /*zz$');
  return `${lines.join('\n')}\n`;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('the main thread during a crawl\'s parsing', () => {
  const pool = analysisPool(2);

  it('stays free while 1,000 URLs of 800 characters are matched against 500 KiB of wildcard rules', async () => {
    const text = wildcardRobotsTxt();
    expect(text.length).toBeGreaterThan(480 * 1024);
    await pool.robots({ text: 'User-agent: *\n', token: '*', urls: [] }); // threads started, as in a running server
    const urls = Array.from({ length: 1000 }, (_, i) => `https://example.com/p${String(i).padStart(4, '0')}?q=${'a'.repeat(770)}${i % 10 === 0 ? 'zz' : 'xy'}`);
    expect(urls[1]).toHaveLength(800);
    const { result, busyMs, ticks } = await mainThreadStall(async () => (await loadCrawlRobots(text, AGENT, pool)).allowed(urls));
    expect(result).toEqual(urls.map((_, i) => i % 10 !== 0));
    expect(ticks).toBeGreaterThan(0);
    expect(busyMs).toBeLessThan(MAX_BUSY_MS);
  });

  it('stays free while a 5 MiB sitemap is read, parsed and its URLs taken', async () => {
    const entries: string[] = [];
    let size = 0;
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(xml);
    });
    servers.push(server);
    for (let i = 0; size < 5 * 2 ** 20; i++) {
      const entry = `<url><loc>${server.origin}/products/item-${i}?colour=blue&amp;size=m</loc><lastmod>2024-05-01</lastmod></url>\n`;
      entries.push(entry);
      size += entry.length;
    }
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('')}</urlset>\n`;
    const options = testOptions({ maxBytes: 6 * 2 ** 20, timeoutMs: 30_000, pool });
    const context = { options, policy: addressPolicy(options), signal: AbortSignal.timeout(30_000) };
    await pool.robots({ text: 'User-agent: *\n', token: '*', urls: [] });
    const site = { origin: server.origin, robotsTxt: null, host: new URL(server.origin).host };
    const { result, busyMs } = await mainThreadStall(() => readSitemapUrls(site, context, { maxUrls: 1_000_000, maxSitemaps: 50 }));
    expect(result.sitemaps).toEqual([{ url: `${server.origin}/sitemap.xml`, error: null }]);
    expect(result.urls).toHaveLength(entries.length);
    expect(result.urls[1]).toBe(`${server.origin}/products/item-1?colour=blue&size=m`);
    expect(busyMs).toBeLessThan(MAX_BUSY_MS);
  });
});
