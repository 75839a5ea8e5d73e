// The URLs a site lists in its sitemaps, to seed a crawl: the robots.txt `Sitemap:` URLs (else
// /sitemap.xml), each read as the page check reads its sitemap (fetch/sitemap-file.ts: guarded, gunzipped,
// parsed on the parsing threads of the context's options when it names them), a sitemap index followed
// to the sitemaps it lists. Bounded: at most `maxSitemaps` files are read and
// `maxUrls` URLs kept. Never throws: a sitemap that cannot be read is listed with its error and the
// others are still read.
import type { AuxContext } from '../fetch/aux-request.ts';
import { readSitemapFile } from '../fetch/sitemap-file.ts';
import { robotsSitemaps } from '../robots/robots-answer.ts';
import { crawlUrl } from './crawl-url.ts';

export interface SitemapSite {
  /** "https://example.com": its /sitemap.xml is read when robots.txt lists no http(s) sitemap. */
  origin: string;
  /** The robots.txt text, or null when there is none or it could not be read. */
  robotsTxt: string | null;
  /**
   * The host whose URLs are kept, as `URL.host` writes it ("example.com", "example.com:8080"): the
   * start URL's. Only page URLs are filtered by it; sitemap files are read wherever robots.txt or an
   * index puts them (a CDN, another subdomain), each through the address guard.
   */
  host: string;
}

export interface SitemapLimits {
  /** URLs kept at most; once reached, no further sitemap is read. */
  maxUrls: number;
  /** Sitemap files read at most (indexes and failed ones included). */
  maxSitemaps: number;
}

interface SitemapListed {
  /** The sitemap URL as listed (robots.txt, an index, or the /sitemap.xml default). */
  url: string;
  /** Why it gave no URLs (unreachable, not 200, too large, not gzip, not XML, not a sitemap), else null. */
  error: string | null;
}

export interface SitemapUrls {
  /**
   * Distinct URLs on `host`, in the order the sitemaps list them, as the crawl keys them (crawlUrl:
   * absolute http(s), no credentials, fragment removed, normalised).
   */
  urls: string[];
  /** Every sitemap file read, in the order read (depth first: an index's sitemaps right after it). */
  sitemaps: SitemapListed[];
  /** Sitemaps listed but not read because `maxSitemaps` or `maxUrls` was reached first. */
  unread: number;
}

/**
 * Reads the site's sitemaps and returns the page URLs on `site.host` they list, with a line per
 * sitemap file read. Requests share `context` (its options' size cap and timeout, its address
 * policy, its deadline); they are made one after the other.
 */
export async function readSitemapUrls(site: SitemapSite, context: AuxContext, limits: SitemapLimits): Promise<SitemapUrls> {
  const host = site.host.toLowerCase();
  const urls = new Set<string>();
  const sitemaps: SitemapListed[] = [];
  // Sitemap URLs listed so far, and where their requests ended after redirects: none is read twice,
  // whether an index lists itself or one listed URL redirects to another that is listed too.
  const seen = new Set<string>();
  const reached = new Set<string>();
  // A stack: the next sitemap to read is last, so an index's sitemaps are read right after it, in order.
  const pending: string[] = [];
  const list = async (found: string[]) => {
    const fresh: string[] = [];
    await inSlices(found, (loc) => {
      if (!isHttpUrl(loc)) return;
      const url = new URL(loc).href;
      const key = withoutFragment(url);
      if (seen.has(key)) return;
      seen.add(key);
      fresh.push(url);
    });
    // (A loop, not push(...fresh): an index may list more sitemaps than a call takes arguments.)
    for (let index = fresh.length - 1; index >= 0; index--) pending.push(fresh[index]);
  };

  await list(await startSitemaps(site, context));
  while (pending.length > 0 && sitemaps.length < limits.maxSitemaps && urls.size < limits.maxUrls) {
    const url = pending.pop() as string;
    if (reached.has(withoutFragment(url))) continue;
    const read = await readSitemap(url, context);
    sitemaps.push({ url, error: read.error });
    const finalUrl = withoutFragment(read.finalUrl);
    reached.add(finalUrl);
    seen.add(finalUrl);
    await inSlices(read.pages, (loc) => {
      if (urls.size >= limits.maxUrls) return false;
      const page = crawlUrl(loc, host);
      if (page !== null) urls.add(page);
    });
    await list(read.sitemaps);
  }
  return { urls: [...urls], sitemaps, unread: pending.length };
}

/**
 * The robots.txt sitemaps (absolute http(s) ones, as parseRobotsTxt keeps them), else /sitemap.xml. A
 * robots.txt may be 500 KiB: it is parsed where the parsing threads are.
 */
async function startSitemaps(site: SitemapSite, context: AuxContext): Promise<string[]> {
  const pool = context.options.pool;
  const listed = site.robotsTxt === null ? [] : pool ? await pool.robotsSitemaps(site.robotsTxt) : robotsSitemaps(site.robotsTxt);
  return listed.some(isHttpUrl) ? listed : [new URL('/sitemap.xml', site.origin).href];
}

interface SitemapRead extends SitemapPages {
  /** Where the request ended, after redirects. */
  finalUrl: string;
}

interface SitemapPages {
  error: string | null;
  pages: string[];
  sitemaps: string[];
}

/** Entries handled between two turns of the event loop (a few milliseconds of URL parsing). */
const SLICE = 500;

async function readSitemap(url: string, context: AuxContext): Promise<SitemapRead> {
  const file = await readSitemapFile(url, context);
  const finalUrl = file.response.finalUrl;
  if (file.content === null) return { error: file.failure, finalUrl, pages: [], sitemaps: [] };
  const { error, pages, sitemaps } = file.content;
  return { error, finalUrl, pages, sitemaps };
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

function withoutFragment(href: string): string {
  const url = new URL(href);
  url.hash = '';
  return url.href;
}

/**
 * Calls `each` on every item until it returns false, yielding to the event loop between slices: a
 * sitemap of megabytes lists some hundred thousand URLs, each parsed here.
 */
async function inSlices<T>(items: readonly T[], each: (item: T) => boolean | void): Promise<void> {
  for (let start = 0; start < items.length; start += SLICE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (let index = start; index < Math.min(start + SLICE, items.length); index++) if (each(items[index]) === false) return;
  }
}
