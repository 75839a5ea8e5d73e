// The crawl-scale benchmark's website, run as a process of its own (`PORT`, `CRAWL_SCALE_PAGES` = N): a
// deterministic site of N generated HTML pages (about 16 KB each, own title, description and text) on
// 127.0.0.1, the home page at / and the others at /page/<i>. Every page links to 16-28 pages of the
// site, as crawl-site.ts's do: the home page, the first eight pages (sections), the parent, up to
// FAN_OUT children (a tree, so a million pages lie within 6 clicks of the home page) and six pages
// picked by a hash of i. Planted for the site checks: on one page with children in a hundred, a link
// to a missing page (404) and, on another, a link through a redirect (/old/<j>, 301 to /page/<j>) (on
// pages with children, no deeper than the deepest pages, so a crawl of max_pages N still reaches them
// before it stops); a title one page in a thousand shares; a two-hop redirect chain from the home page. External links go to 127.0.0.2 (the same
// process, a loopback host of its own), so checking them never leaves the machine. robots.txt names
// the sitemap: /sitemap.xml lists every page (with one missing page and one redirect), as an index of
// SITEMAP_CHUNK-URL files once the site is larger than that.
import { createServer } from 'node:http';
import { seededRandom } from './random.ts';

const FAN_OUT = 12;
const SECTIONS = 8;
const RELATED = 6;
/** URLs per sitemap file: 1,000,000 pages make 40 files, under the 50 a crawl reads. */
const SITEMAP_CHUNK = 25_000;
/** One page with children in PLANT_LINK_EVERY carries each planted link; one page in PLANT_TITLE_EVERY the shared title. */
const PLANT_LINK_EVERY = 100;
const PLANT_TITLE_EVERY = 1000;
const PARAGRAPHS_PER_PAGE = 14;
const EXTERNAL_HOST = '127.0.0.2';
const EXTERNAL_TARGETS = 20;
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const NOT_FOUND = '<!doctype html><html lang="en"><head><title>Not found</title></head><body><h1>Not found</h1></body></html>';

const pages = Number(process.env.CRAWL_SCALE_PAGES);
const port = Number(process.env.PORT);
if (!Number.isInteger(pages) || pages < 1 || !Number.isInteger(port)) throw new Error('CRAWL_SCALE_PAGES and PORT are required');
const origin = `http://127.0.0.1:${port}`;

const WORDS = (
  'audit site page search engine crawl link index content title description heading image text ' +
  'report score fast mobile secure canonical sitemap robots server cache network browser visitor ' +
  'product service garden kitchen travel music history science market city river mountain winter ' +
  'summer library museum bridge harbour station school design pattern signal method result answer ' +
  'question detail simple careful modern ancient bright quiet steady open local global early later'
).split(' ');


/** 64 paragraphs of about 110 words; each page picks its own PARAGRAPHS_PER_PAGE of them. */
const PARAGRAPHS = Array.from({ length: 64 }, (_, index) => {
  const next = seededRandom(index + 1);
  const words = Array.from({ length: 110 }, () => WORDS[Math.floor(next() * WORDS.length)]);
  return `${words.join(' ')}.`;
});

const STYLE = `<style>${Array.from({ length: 40 }, (_, index) => `.block-${index}{margin:${index}px 0;padding:${index % 7}px;color:#${(index * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`).join('')}</style>`;

const pagePath = (index: number) => (index === 0 ? '/' : `/page/${index}`);
const hash = (index: number, k: number) => (Math.imul(index + 1, 2654435761 + 97 * k) >>> 0) % pages;
const plantedLink = (index: number, offset: number) => index * FAN_OUT + 1 < pages && index % PLANT_LINK_EVERY === offset;

/** The site's pages page `index` links to, in order, without repeats or itself. */
function linksOf(index: number): number[] {
  const links = new Set<number>([0]);
  for (let section = 1; section <= SECTIONS && section < pages; section++) links.add(section);
  if (index > 0) links.add(Math.floor((index - 1) / FAN_OUT));
  for (let child = index * FAN_OUT + 1; child <= index * FAN_OUT + FAN_OUT && child < pages; child++) links.add(child);
  for (let k = 1; k <= RELATED; k++) links.add(hash(index, k));
  links.delete(index);
  return [...links];
}

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function pageHtml(index: number): string {
  const next = seededRandom(index * 7919 + 13);
  const topic = `${WORDS[index % WORDS.length]} ${WORDS[Math.floor(index / WORDS.length) % WORDS.length]}`;
  const title = index % PLANT_TITLE_EVERY === 3 ? 'Welcome' : `Page ${index}: ${topic} guide`;
  const items = linksOf(index).map((link) => `<li><a href="${pagePath(link)}">${link === 0 ? 'Home' : `Page ${link}`}</a></li>`);
  if (plantedLink(index, 50)) items.push(`<li><a href="/missing/${index}">Old article</a></li>`);
  if (plantedLink(index, 25)) items.push(`<li><a href="/old/${Math.max(1, hash(index, 9))}">Moved article</a></li>`);
  if (index === 0) items.push('<li><a href="/moved">Archive</a></li>');
  const paragraphs = Array.from({ length: PARAGRAPHS_PER_PAGE }, (_, k) => {
    const text = PARAGRAPHS[Math.floor(next() * PARAGRAPHS.length)];
    return `<p class="block-${k}">${k === 0 ? `Page ${index} is about ${topic}. ` : ''}${text}</p>`;
  }).join('\n');
  const external = `<a href="http://${EXTERNAL_HOST}:${port}/partner/${index % EXTERNAL_TARGETS}">Partner</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeText(title)}</title>
<meta name="description" content="Everything about ${topic} on page ${index} of the generated benchmark site, with notes and examples.">
<link rel="canonical" href="${origin}${pagePath(index)}">
<link rel="icon" href="/favicon.ico">${STYLE}
</head><body><header><nav class="site-nav"><ul>${items.join('')}</ul></nav></header>
<main><h1>${escapeText(topic)} (page ${index})</h1>
<img src="/img/${index % 8}.png" alt="Illustration of ${topic}" width="640" height="360">
${paragraphs}
</main><footer><p>Generated page ${index} of ${pages}. ${external}</p></footer></body></html>`;
}

function pageIndex(path: string, prefix: string): number | null {
  const match = new RegExp(`^${prefix}([1-9]\\d*)$`).exec(path);
  const index = match ? Number(match[1]) : NaN;
  return index < pages ? index : null;
}

const sitemapFiles = Math.ceil(pages / SITEMAP_CHUNK);
const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('\n')}\n</urlset>\n`;

/** Sitemap file `file` (0-based) of the pages; the first also lists the planted missing page and redirect. */
function sitemapPart(file: number): string {
  const locs: string[] = file === 0 ? [`${origin}/missing/sitemap`, `${origin}/old/1`] : [];
  for (let index = file * SITEMAP_CHUNK; index < Math.min(pages, (file + 1) * SITEMAP_CHUNK); index++) locs.push(`${origin}${pagePath(index)}`);
  return urlset(locs);
}

function sitemapIndex(): string {
  const entries = Array.from({ length: sitemapFiles }, (_, file) => `<sitemap><loc>${origin}/sitemap-${file + 1}.xml</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

type Answer = { status: number; type?: string; body?: string | Buffer; location?: string };

function answer(host: string, path: string): Answer {
  const html = 'text/html; charset=utf-8';
  if (host.startsWith(`${EXTERNAL_HOST}:`)) return path.startsWith('/partner/') ? { status: 200, type: html, body: NOT_FOUND.replace(/Not found/g, 'Partner') } : { status: 404, type: html, body: NOT_FOUND };
  if (path === '/') return { status: 200, type: html, body: pageHtml(0) };
  const page = pageIndex(path, '/page/');
  if (page !== null) return { status: 200, type: html, body: pageHtml(page) };
  const old = pageIndex(path, '/old/');
  if (old !== null) return { status: 301, location: pagePath(old) };
  if (path === '/moved') return { status: 301, location: '/old/1' };
  if (path === '/robots.txt') return { status: 200, type: 'text/plain', body: `User-agent: *\nDisallow: /admin/\nSitemap: ${origin}/sitemap.xml\n` };
  if (path === '/sitemap.xml') return { status: 200, type: 'application/xml', body: sitemapFiles === 1 ? sitemapPart(0) : sitemapIndex() };
  const part = /^\/sitemap-(\d+)\.xml$/.exec(path);
  if (part && Number(part[1]) >= 1 && Number(part[1]) <= sitemapFiles) return { status: 200, type: 'application/xml', body: sitemapPart(Number(part[1]) - 1) };
  if (path === '/favicon.ico' || /^\/img\/\d\.png$/.test(path)) return { status: 200, type: 'image/png', body: PIXEL };
  return { status: 404, type: html, body: NOT_FOUND };
}

const server = createServer((request, response) => {
  const result = answer(request.headers.host ?? '', (request.url ?? '/').split('?')[0]);
  if (result.location) {
    response.writeHead(result.status, { location: result.location, 'content-length': 0 });
    response.end();
    return;
  }
  const body = typeof result.body === 'string' ? Buffer.from(result.body) : result.body!;
  response.writeHead(result.status, { 'content-type': result.type, 'content-length': body.byteLength });
  response.end(request.method === 'HEAD' ? undefined : body);
});
// The same handler on a second loopback address: the site's "external" host.
const external = createServer(server.listeners('request')[0] as Parameters<typeof createServer>[1]);
server.listen(port, '127.0.0.1');
external.listen(port, EXTERNAL_HOST);
process.on('SIGTERM', () => {
  for (const each of [server, external]) each.closeAllConnections();
  server.close(() => external.close(() => process.exit(0)));
});
