// The crawl-scale benchmark's floor, run as a process of its own: a `wget --spider`-style crawler of
// the same site at the same concurrency and nothing more. From the start URL it fetches each URL of
// the start URL's host once (undici, keep-alive), and from every 200 HTML answer extracts the <a href>
// links (a bare htmlparser2 parse, the engine floor's, honouring <base href>), keeping those on the
// host, fragment removed, in the order found; a redirect's Location joins the queue the same way. No
// robots.txt, no sitemap, no analysis, no storage. Stops once `maxPages` HTML pages were fetched.
// Input (one JSON argument): { startUrl, maxPages, concurrency }. Prints one JSON line: FloorCrawl.
import { Parser } from 'htmlparser2';
import { request } from 'undici';
import { PARSER_OPTIONS } from '../src/parse/parse-page.ts';
import { round } from './stats.ts';

interface FloorInput {
  startUrl: string;
  maxPages: number;
  concurrency: number;
}

export interface FloorCrawl {
  /** 200 HTML pages fetched and parsed */
  pages: number;
  /** every request: pages, redirects, missing pages */
  requests: number;
  /** URLs of the host found, fetched or not */
  urls_found: number;
  seconds: number;
  pages_per_s: number;
  cpu_ms_per_page: number;
  /** this process's peak resident memory (its seen-URL set grows with the site) */
  rss_peak_mb: number;
}

const input = JSON.parse(process.argv[2]) as FloorInput;
const host = new URL(input.startUrl).host;
const seen = new Set<string>();
const queue: string[] = [];
let head = 0;

function discover(href: string | undefined, base: string): void {
  if (!href) return;
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return;
  }
  if (url.host !== host || (url.protocol !== 'http:' && url.protocol !== 'https:')) return;
  url.hash = '';
  const key = url.href;
  if (seen.has(key)) return;
  seen.add(key);
  queue.push(key);
}

function extractLinks(html: string, pageUrl: string): void {
  let base = pageUrl;
  const hrefs: string[] = [];
  new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'a' && attributes.href !== undefined) hrefs.push(attributes.href);
        else if (name === 'base' && attributes.href !== undefined) base = new URL(attributes.href, pageUrl).href;
      },
    },
    PARSER_OPTIONS,
  ).end(html);
  for (const href of hrefs) discover(href, base);
}

let pages = 0;
let requests = 0;
let active = 0;

async function visit(url: string): Promise<void> {
  requests++;
  const { statusCode, headers, body } = await request(url);
  const type = String(headers['content-type'] ?? '');
  if (statusCode === 200 && type.startsWith('text/html')) {
    const html = await body.text();
    pages++;
    extractLinks(html, url);
    return;
  }
  await body.dump();
  if (statusCode >= 300 && statusCode < 400) discover(headers.location as string | undefined, url);
}

/** Keeps `concurrency` requests under way until the queue is empty or enough pages were fetched. */
function crawl(): Promise<void> {
  return new Promise((resolve, reject) => {
    const pump = () => {
      while (active < input.concurrency && head < queue.length && pages + active < input.maxPages) {
        const url = queue[head];
        queue[head++] = '';
        active++;
        visit(url).then(() => {
          active--;
          pump();
        }, reject);
      }
      if (active === 0) resolve();
    };
    pump();
  });
}

discover(input.startUrl, input.startUrl);
const cpuBefore = process.cpuUsage();
const started = performance.now();
await crawl();
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const result: FloorCrawl = {
  pages,
  requests,
  urls_found: seen.size,
  seconds: round(seconds, 2),
  pages_per_s: round(pages / seconds, 1),
  cpu_ms_per_page: round((cpu.user + cpu.system) / 1000 / Math.max(pages, 1), 3),
  rss_peak_mb: round(process.resourceUsage().maxRSS / 1024, 1),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
