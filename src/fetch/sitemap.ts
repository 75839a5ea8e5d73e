// Finding the origin's sitemap: the robots.txt Sitemap: lines first, then /sitemap.xml. The first
// candidate that answers 200 is the sitemap; its XML is checked and its entries counted.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { auxRequest, type AuxContext } from './aux-request.ts';
import { decodeText, plainTextEncoding } from './charset.ts';
import { inspectSitemapXml } from './sitemap-xml.ts';
import type { AuxResponse, OriginFacts } from './types.ts';

/** robots.txt may list hundreds of sitemaps; the first few that answer are enough to find one. */
const MAX_ROBOTS_SITEMAPS = 3;
const gunzip = promisify(zlib.gunzip);

type SitemapFacts = NonNullable<OriginFacts['sitemap']>;

export async function findSitemap(origin: string, robotsTxt: AuxResponse, context: AuxContext): Promise<SitemapFacts | null> {
  const fromRobots = sitemapUrlsInRobotsTxt(robotsTxt).slice(0, MAX_ROBOTS_SITEMAPS);
  const fallback = new URL('/sitemap.xml', origin).href;
  const candidates = [
    ...fromRobots.map((url) => ({ url, source: 'robots' as const })),
    ...(fromRobots.includes(fallback) ? [] : [{ url: fallback, source: 'default' as const }]),
  ];
  let unanswered: SitemapFacts | null = null;
  let anyAnswered = false;
  for (const { url, source } of candidates) {
    const attempt = await fetchSitemap(url, source, context);
    if (attempt.sitemap) return attempt.sitemap;
    if (attempt.answered) anyAnswered = true;
    else unanswered ??= { ...attempt.response, validXml: false, urlCount: 0, source };
  }
  // Nothing answered at all (timeouts, refused): report that, so the check can say it could not
  // tell, instead of scoring a network problem as a missing sitemap.
  return anyAnswered ? null : unanswered;
}

/** Absolute http(s) URLs of the `Sitemap:` lines of a robots.txt that was read. */
function sitemapUrlsInRobotsTxt(robotsTxt: AuxResponse): string[] {
  if (robotsTxt.body === null) return [];
  const urls: string[] = [];
  for (const line of robotsTxt.body.split(/\r\n|\r|\n/)) {
    const match = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!match || !URL.canParse(match[1], robotsTxt.finalUrl)) continue;
    const url = new URL(match[1], robotsTxt.finalUrl);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !urls.includes(url.href)) urls.push(url.href);
  }
  return urls;
}

interface SitemapAttempt {
  /** The sitemap at the URL if it answered 200 (even when its body then failed). */
  sitemap: SitemapFacts | null;
  /** Whether the server answered with any HTTP status. */
  answered: boolean;
  response: AuxResponse;
}

async function fetchSitemap(url: string, source: SitemapFacts['source'], context: AuxContext): Promise<SitemapAttempt> {
  const found = (sitemap: SitemapFacts): SitemapAttempt => ({ sitemap, answered: true, response: result.response });
  const maxBytes = context.options.maxBytes;
  const result = await auxRequest(url, context, { maxBytes, onOverflow: 'fail' });
  if (result.answeredStatus !== 200) {
    return { sitemap: null, answered: result.answeredStatus !== null, response: result.response };
  }
  const unreadable = { validXml: false, urlCount: 0, source };
  if (!result.bytes) return found({ ...result.response, ...unreadable });
  let bytes = result.bytes;
  // sitemap.xml.gz is usually served as a gzip file, not with Content-Encoding: gzip.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = await gunzip(bytes, { maxOutputLength: maxBytes });
    } catch {
      const error = `The sitemap is not valid gzip or larger than ${maxBytes} bytes.`;
      return found({ ...result.response, statusCode: null, error, ...unreadable });
    }
  }
  const xml = decodeText(bytes, plainTextEncoding(bytes, result.charsetLabel));
  // The text itself is not kept: no check reads it, and sitemaps can be megabytes per cached origin.
  return found({ ...result.response, body: null, ...inspectSitemapXml(xml), source });
}
