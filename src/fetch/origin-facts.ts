// What the checks need from the page's origin, gathered once: robots.txt, a 404 probe, the favicon,
// llms.txt, the sitemap and HTTP/2 support. Cached per origin briefly, so many reports on one site share one
// set of requests (in-flight ones included).
import { randomBytes } from 'node:crypto';
import { addressPolicy, policyKey } from './address-guard.ts';
import { auxRequest, type AuxContext } from './aux-request.ts';
import { decodeText, plainTextEncoding } from './charset.ts';
import { ExpiringCache } from './expiring-cache.ts';
import { negotiatesHttp2 } from './http2-probe.ts';
import { parseHttpUrl } from './http-url.ts';
import type { FetchOptions } from './options.ts';
import { findSitemap } from './sitemap.ts';
import type { AuxResponse, OriginFacts } from './types.ts';

const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ORIGINS = 500;
/**
 * Google reads the first 500 KiB of a robots.txt and ignores the rest; so does pagegrade. llms.txt is
 * read within the same limit: its title, summary and first sections are what the check judges.
 */
const TEXT_FILE_MAX_BYTES = 512 * 1024;

const cache = new ExpiringCache<Promise<OriginFacts>>(CACHE_TTL_MS, CACHE_MAX_ORIGINS);

/**
 * Never rejects: every request that fails is described in its AuxResponse's `error`. Only a URL that
 * is not http(s) throws (FetchError 'invalid_url'), at once.
 */
export function gatherOriginFacts(pageUrl: string, options: FetchOptions): Promise<OriginFacts> {
  const origin = parseHttpUrl(pageUrl).origin;
  const policy = addressPolicy(options);
  return cache.getOrCreate(`${origin} ${policyKey(policy)}`, () => {
    // All of an origin's requests share one deadline, like the requests of one page.
    const context: AuxContext = { options, policy, signal: AbortSignal.timeout(options.timeoutMs) };
    return gather(origin, context);
  });
}

/** Forget every cached origin (tests). */
export function clearOriginFactsCache(): void {
  cache.clear();
}

/**
 * The origin facts without the cache, one request at a time, robots.txt already read: what a crawl
 * reads once when it starts, within its host's limit of requests at once (it keeps them for every page).
 */
export function gatherOriginFactsOneAtATime(pageUrl: string, context: AuxContext, robotsTxt: AuxResponse): Promise<OriginFacts> {
  return gather(parseHttpUrl(pageUrl).origin, context, { robotsTxt });
}

/** `crawl`: a crawl's gathering, one request at a time, with the robots.txt it read. */
async function gather(origin: string, context: AuxContext, crawl?: { robotsTxt: AuxResponse }): Promise<OriginFacts> {
  const schedule = crawl ? oneAfterAnother() : <T>(task: () => Promise<T>) => task();
  const robots = crawl ? Promise.resolve(crawl.robotsTxt) : fetchRobotsTxt(origin, context);
  const [robotsTxt, notFoundProbe, faviconIco, llmsTxt, http2, sitemap] = await Promise.all([
    robots,
    schedule(() => auxRequest(`${origin}/pagegrade-404-${randomBytes(8).toString('hex')}`, context, null)),
    schedule(() => auxRequest(`${origin}/favicon.ico`, context, null)),
    schedule(() => fetchTextFile(`${origin}/llms.txt`, context)),
    schedule(() => negotiatesHttp2(new URL(origin), context.policy, context.signal)),
    robots.then((robotsTxt) => schedule(() => findSitemap(origin, robotsTxt, context))),
  ]);
  return {
    origin,
    robotsTxt,
    notFoundProbe: notFoundProbe.response,
    faviconIco: faviconIco.response,
    llmsTxt,
    sitemap,
    http2,
  };
}

/** Runs each task given to it once the one before has ended. */
function oneAfterAnother() {
  let previous: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = previous.then(task, task);
    previous = run.catch(() => undefined);
    return run;
  };
}

/** The origin's robots.txt, decoded (cut at 500 KiB as Google does). */
export function fetchRobotsTxt(origin: string, context: AuxContext): Promise<AuxResponse> {
  return fetchTextFile(`${origin}/robots.txt`, context);
}

/** A plain-text file of the origin (robots.txt, llms.txt), decoded, cut at TEXT_FILE_MAX_BYTES. */
async function fetchTextFile(url: string, context: AuxContext): Promise<AuxResponse> {
  const result = await auxRequest(url, context, { maxBytes: TEXT_FILE_MAX_BYTES, onOverflow: 'truncate' });
  if (!result.bytes) return result.response;
  let text = decodeText(result.bytes, plainTextEncoding(result.bytes, result.charsetLabel));
  // A cut-off last line would read as a different rule; drop it.
  if (result.truncated) text = text.slice(0, text.lastIndexOf('\n') + 1);
  return { ...result.response, body: text };
}
