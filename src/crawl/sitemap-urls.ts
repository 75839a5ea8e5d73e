// The URLs a site lists in its sitemaps, to seed a crawl: the robots.txt `Sitemap:` URLs (else
// /sitemap.xml), each read with the guarded auxiliary request, parsed as XML (fast-xml-parser), a
// sitemap index followed to the sitemaps it lists. Bounded: at most `maxSitemaps` files are read and
// `maxUrls` URLs kept. Never throws: a sitemap that cannot be read is listed with its error and the
// others are still read.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { auxRequest, type AuxContext } from '../fetch/aux-request.ts';
import { decodeText, plainTextEncoding } from '../fetch/charset.ts';
import { parseRobotsTxt } from '../robots/robots-txt.ts';
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

interface SitemapRead {
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
  sitemaps: SitemapRead[];
  /** Sitemaps listed but not read because `maxSitemaps` or `maxUrls` was reached first. */
  unread: number;
}

const gunzip = promisify(zlib.gunzip);

/** <loc> of <url> in a <urlset>, <loc> of <sitemap> in a <sitemapindex>: always arrays, even when single. */
const LISTS = new Set(['urlset.url', 'urlset.url.loc', 'sitemapindex.sitemap', 'sitemapindex.sitemap.loc']);

const parser = new XMLParser({
  // "sm:urlset" -> "urlset"; attributes (xmlns declarations included) are ignored by default.
  removeNSPrefix: true,
  // Text stays text: no number parsing of values.
  parseTagValue: false,
  // Decodes numeric character references (&#38;) as well as the five XML entities.
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, jPath) => LISTS.has(String(jPath)),
});

/**
 * Reads the site's sitemaps and returns the page URLs on `site.host` they list, with a line per
 * sitemap file read. Requests share `context` (its options' size cap and timeout, its address
 * policy, its deadline); they are made one after the other.
 */
export async function readSitemapUrls(site: SitemapSite, context: AuxContext, limits: SitemapLimits): Promise<SitemapUrls> {
  const host = site.host.toLowerCase();
  const urls = new Set<string>();
  const sitemaps: SitemapRead[] = [];
  // Sitemap URLs listed so far, and where their requests ended after redirects: none is read twice,
  // whether an index lists itself or one listed URL redirects to another that is listed too.
  const seen = new Set<string>();
  const reached = new Set<string>();
  // A stack: the next sitemap to read is last, so an index's sitemaps are read right after it, in order.
  const pending: string[] = [];
  const list = (found: string[]) => {
    const fresh = found.filter((url) => {
      const key = withoutFragment(url);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    // (A loop, not push(...fresh): an index may list more sitemaps than a call takes arguments.)
    for (let index = fresh.length - 1; index >= 0; index--) pending.push(fresh[index]);
  };

  list(startSitemaps(site));
  while (pending.length > 0 && sitemaps.length < limits.maxSitemaps && urls.size < limits.maxUrls) {
    const url = pending.pop() as string;
    if (reached.has(withoutFragment(url))) continue;
    const read = await readSitemap(url, context);
    sitemaps.push({ url, error: read.error });
    const finalUrl = withoutFragment(read.finalUrl);
    reached.add(finalUrl);
    seen.add(finalUrl);
    for (const loc of read.pages) {
      if (urls.size >= limits.maxUrls) break;
      const page = crawlUrl(loc, host);
      if (page !== null) urls.add(page);
    }
    list(read.sitemaps.filter(isHttpUrl).map((loc) => new URL(loc).href));
  }
  return { urls: [...urls], sitemaps, unread: pending.length };
}

/** The robots.txt sitemaps (absolute http(s) ones, as parseRobotsTxt keeps them), else /sitemap.xml. */
function startSitemaps(site: SitemapSite): string[] {
  const listed = site.robotsTxt === null ? [] : parseRobotsTxt(site.robotsTxt).sitemaps;
  const usable = listed.filter(isHttpUrl).map((url) => new URL(url).href);
  return usable.length > 0 ? usable : [new URL('/sitemap.xml', site.origin).href];
}

interface SitemapContent {
  error: string | null;
  /** Where the request ended, after redirects. */
  finalUrl: string;
  /** <loc> texts of a urlset's <url> entries, trimmed, as written. */
  pages: string[];
  /** <loc> texts of a sitemap index's <sitemap> entries, trimmed, as written. */
  sitemaps: string[];
}

async function readSitemap(url: string, context: AuxContext): Promise<SitemapContent> {
  const maxBytes = context.options.maxBytes;
  const result = await auxRequest(url, context, { maxBytes, onOverflow: 'fail' });
  const { error, statusCode, finalUrl } = result.response;
  const failed = (reason: string): SitemapContent => ({ error: reason, finalUrl, pages: [], sitemaps: [] });
  if (error !== null) return failed(error);
  if (statusCode !== 200) return failed(`The sitemap answered HTTP ${statusCode}.`);
  let bytes = result.bytes ?? Buffer.alloc(0);
  // sitemap.xml.gz is usually served as a gzip file, not with Content-Encoding: gzip (as in sitemap.ts).
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = await gunzip(bytes, { maxOutputLength: maxBytes });
    } catch {
      return failed(`The sitemap is not valid gzip or larger than ${maxBytes} bytes.`);
    }
  }
  const parsed = parseSitemap(decodeText(bytes, plainTextEncoding(bytes, result.charsetLabel)));
  return { ...parsed, finalUrl };
}

/** The <loc> entries of a sitemap's XML; a document that is not well-formed gives none. */
function parseSitemap(xml: string): Omit<SitemapContent, 'finalUrl'> {
  const failed = (error: string) => ({ error, pages: [], sitemaps: [] });
  // fast-xml-parser's parser is forgiving (an unclosed tag still yields its text); its validator is not.
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    const { msg, line } = validation.err;
    return failed(`The sitemap is not valid XML (line ${line}): ${msg.endsWith('.') ? msg : `${msg}.`}`);
  }
  let tree: Record<string, unknown>;
  try {
    tree = parser.parse(xml) as Record<string, unknown>;
  } catch (err) {
    // The validator passed it, yet the parser refused it (a tag named __proto__, too deep a nesting).
    return failed(`The sitemap could not be read as XML: ${err instanceof Error ? err.message : String(err)}`);
  }
  // The validator allows one root element; declaration and processing instructions are dropped.
  const root = Object.keys(tree)[0] ?? '';
  if (root === 'urlset') return { error: null, pages: locs(tree.urlset, 'url'), sitemaps: [] };
  if (root === 'sitemapindex') return { error: null, pages: [], sitemaps: locs(tree.sitemapindex, 'sitemap') };
  return failed(`The sitemap's root element is <${root}>, not <urlset> or <sitemapindex>.`);
}

/** The first <loc> text of each `entry` child of `parent` (an element without one is skipped). */
function locs(parent: unknown, entry: 'url' | 'sitemap'): string[] {
  const entries = isRecord(parent) ? parent[entry] : undefined;
  if (!Array.isArray(entries)) return [];
  const found: string[] = [];
  for (const item of entries) {
    // <loc> holding elements parses to an object; an empty <url/> to "".
    const loc: unknown = isRecord(item) && Array.isArray(item.loc) ? item.loc[0] : undefined;
    if (typeof loc === 'string' && loc.trim() !== '') found.push(loc.trim());
  }
  return found;
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
