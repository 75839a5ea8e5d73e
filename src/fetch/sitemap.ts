// Finding the origin's sitemap: the robots.txt Sitemap: lines first, then /sitemap.xml. The first
// candidate that answers 200 is the sitemap; its XML is checked and its entries counted (sitemap-file.ts
// reads it, on the parsing threads when there are).
import type { AuxContext } from './aux-request.ts';
import { readSitemapFile } from './sitemap-file.ts';
import { sitemapInspection } from './sitemap-xml.ts';
import type { AuxResponse, OriginFacts } from './types.ts';

/** robots.txt may list hundreds of sitemaps; the first few that answer are enough to find one. */
const MAX_ROBOTS_SITEMAPS = 3;

type SitemapFacts = NonNullable<OriginFacts['sitemap']>;

export async function findSitemap(origin: string, robotsTxt: AuxResponse, context: AuxContext): Promise<SitemapFacts | null> {
  const fromRobots = sitemapUrlsInRobotsTxt(robotsTxt, MAX_ROBOTS_SITEMAPS);
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

/**
 * The first `max` distinct absolute http(s) URLs of the `Sitemap:` lines of a robots.txt that was read
 * (one cheap pass over its lines, stopping there: a file may hold thousands).
 */
function sitemapUrlsInRobotsTxt(robotsTxt: AuxResponse, max: number): string[] {
  if (robotsTxt.body === null) return [];
  const urls: string[] = [];
  for (const line of robotsTxt.body.split(/\r\n|\r|\n/)) {
    const match = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!match || !URL.canParse(match[1], robotsTxt.finalUrl)) continue;
    const url = new URL(match[1], robotsTxt.finalUrl);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !urls.includes(url.href)) urls.push(url.href);
    if (urls.length === max) break;
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
  const file = await readSitemapFile(url, context);
  const { response } = file;
  if (file.answeredStatus !== 200) return { sitemap: null, answered: file.answeredStatus !== null, response };
  const found = (sitemap: SitemapFacts): SitemapAttempt => ({ sitemap, answered: true, response });
  if (file.content === null) return found({ ...response, statusCode: null, error: file.failure, validXml: false, urlCount: 0, source });
  // The text itself is not kept: no check reads it, and sitemaps can be megabytes per cached origin.
  return found({ ...response, body: null, ...sitemapInspection(file.content), source });
}
