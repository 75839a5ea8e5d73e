// The crawl benchmark's website, run as a process of its own (`PORT`, `CRAWL_SITE_PAGES` = N): a
// deterministic site of N HTML pages on 127.0.0.1, the home page at / and the others at /page/<i>.
// Page i is corpus page i mod 264 (../shared/corpus, byte for byte) with three things added, all
// ASCII so any charset keeps them: a <base href> naming the page's original address first in <head>
// (so the page's own relative links resolve off this host, as they did on theirs, and are not
// followed), "Page i: " before its title (titles and text differ from page to page, as on a real
// site), and a <nav> first in <body> with 16-28 links to pages of the site: the home page, the first
// eight pages (sections), the parent, up to FAN_OUT children (a tree of FAN_OUT branches, so 10,000
// pages lie within 4 clicks of the home page) and six other pages picked by a hash of i. Also
// robots.txt (no Crawl-delay, no sitemap), a favicon, and a 404 for anything else. Bodies go out
// uncompressed, the same bytes to pagegrade and to the floor.
import { createServer } from 'node:http';
import { loadCorpus } from '../test/support/corpus.ts';

const FAN_OUT = 12;
const SECTIONS = 8;
const RELATED = 6;
const FAVICON = Buffer.alloc(70);
const NOT_FOUND = '<!doctype html><title>Not found</title><h1>Not found</h1>';

const pages = Number(process.env.CRAWL_SITE_PAGES);
const port = Number(process.env.PORT);
if (!Number.isInteger(pages) || pages < 1 || !Number.isInteger(port)) throw new Error('CRAWL_SITE_PAGES and PORT are required');
const origin = `http://127.0.0.1:${port}`;

/** A corpus page cut where page i's own parts go: [to <head>, <base> goes here, to the title's text, to <body ...>, the rest]. */
interface Template {
  base: Buffer;
  parts: [Buffer, Buffer, Buffer, Buffer];
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function template(bytes: Buffer, originalUrl: string): Template {
  // latin1 maps each byte to one code unit and back, so the cuts keep the page's bytes whatever its charset.
  const text = bytes.toString('latin1');
  const cut = (pattern: RegExp, from: number) => {
    pattern.lastIndex = from;
    const match = pattern.exec(text);
    if (!match) throw new Error(`corpus page for ${originalUrl}: no ${pattern.source}`);
    return match.index + match[0].length;
  };
  const head = cut(/<head(\s[^>]*)?>/gi, 0);
  const title = cut(/<title(\s[^>]*)?>/gi, head);
  const body = cut(/<body(\s[^>]*)?>/gi, title);
  const slice = (start: number, end?: number) => Buffer.from(text.slice(start, end), 'latin1');
  return {
    base: Buffer.from(`<base href="${escapeAttribute(originalUrl)}">`, 'latin1'),
    parts: [slice(0, head), slice(head, title), slice(title, body), slice(body)],
  };
}

const pagePath = (index: number) => (index === 0 ? '/' : `/page/${index}`);

/** The site's pages page `index` links to, in order, without repeats or itself. */
function linksOf(index: number): number[] {
  const links = new Set<number>([0]);
  for (let section = 1; section <= SECTIONS && section < pages; section++) links.add(section);
  if (index > 0) links.add(Math.floor((index - 1) / FAN_OUT));
  for (let child = index * FAN_OUT + 1; child <= index * FAN_OUT + FAN_OUT && child < pages; child++) links.add(child);
  // A multiplicative hash: the same "related" pages every run, spread over the whole site.
  for (let k = 1; k <= RELATED; k++) links.add((Math.imul(index + 1, 2654435761 + 97 * k) >>> 0) % pages);
  links.delete(index);
  return [...links];
}

function nav(index: number): Buffer {
  const items = linksOf(index)
    .map((link) => `<li><a href="${origin}${pagePath(link)}">${link === 0 ? 'Home' : `Page ${link}`}</a></li>`)
    .join('');
  return Buffer.from(`<nav class="site-nav"><p>Site page ${index} of ${pages}</p><ul>${items}</ul></nav>`, 'latin1');
}

const templates = loadCorpus().map((page) => template(page.bytes, page.url));

function pageBody(index: number): Buffer {
  const { base, parts } = templates[index % templates.length];
  return Buffer.concat([parts[0], base, parts[1], Buffer.from(`Page ${index}: `, 'latin1'), parts[2], nav(index), parts[3]]);
}

function pageIndex(path: string): number | null {
  if (path === '/') return 0;
  const match = /^\/page\/([1-9]\d*)$/.exec(path);
  const index = match ? Number(match[1]) : NaN;
  return index < pages ? index : null;
}

const robotsTxt = 'User-agent: *\nDisallow: /admin/\n';

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  const index = pageIndex(path);
  let type = 'text/html; charset=utf-8';
  let body: Buffer | string;
  if (index !== null) body = pageBody(index);
  else if (path === '/robots.txt') [type, body] = ['text/plain', robotsTxt];
  else if (path === '/favicon.ico') [type, body] = ['image/x-icon', FAVICON];
  else {
    response.writeHead(404, { 'content-type': type, 'content-length': NOT_FOUND.length });
    response.end(NOT_FOUND);
    return;
  }
  response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
