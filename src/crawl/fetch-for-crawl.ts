// Fetching one URL of a crawl: a redirect is not followed but recorded (its target is a URL of the
// frontier like any other, so each URL is fetched once and the site checks follow chains through the
// stored answers), a 429 or 503 turned into a wait, non-HTML answers checked for their status only
// (their body is never read), and an HTML page's body read for analysis.
import { FetchError } from '../fetch/fetch-error.ts';
import { openPage, readPage } from '../fetch/fetch-page.ts';
import { redirectLocation } from '../fetch/redirect-chain.ts';
import { isHtmlMimeType } from '../fetch/content-type.ts';
import type { FetchOptions } from '../fetch/options.ts';
import { abandonBody } from '../fetch/read-body.ts';
import type { UndecodedPage } from '../fetch/types.ts';

/** Bounds on a host's Retry-After: at least a second, and never a wait that stalls the crawl for long. */
const MIN_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;
const DEFAULT_RETRY_MS = 5_000;

export type CrawlFetch =
  /** could not be fetched (unreachable, timeout, redirect loop, too large...) */
  | { kind: 'failed'; error: string }
  /** the host said to come back later (429, 503) */
  | { kind: 'wait'; retryAfterMs: number; statusCode: number }
  | {
      kind: 'answered';
      statusCode: number;
      /** where a redirect points (absolute); null for any other answer */
      redirectTarget: string | null;
      contentType: string | null;
      /** the body of a 2xx HTML answer, read for analysis */
      page: UndecodedPage | null;
      /** why a 2xx HTML answer could not be read (too large...), else null */
      error: string | null;
    };

export async function fetchForCrawl(url: string, options: FetchOptions): Promise<CrawlFetch> {
  let opened;
  try {
    opened = await openPage(url, options, false);
  } catch (error) {
    if (error instanceof FetchError) return { kind: 'failed', error: error.reason };
    throw error;
  }
  const status = opened.statusCode;
  if (status === 429 || status === 503) {
    abandonBody(opened.response.body);
    return { kind: 'wait', retryAfterMs: retryAfterMs(opened.headers['retry-after']), statusCode: status };
  }
  const redirectTarget = redirectLocation(opened.response, opened.finalUrl)?.href ?? null;
  const answered = { kind: 'answered' as const, statusCode: status, redirectTarget, contentType: opened.contentType };
  const html = status >= 200 && status < 300 && (opened.mimeType === null || isHtmlMimeType(opened.mimeType));
  if (!html) {
    abandonBody(opened.response.body);
    return { ...answered, page: null, error: null };
  }
  try {
    return { ...answered, page: await readPage(opened, options), error: null };
  } catch (error) {
    if (error instanceof FetchError) return { ...answered, page: null, error: error.reason };
    throw error;
  }
}

/** Retry-After as seconds or an HTTP date, bounded. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number {
  if (header === undefined) return DEFAULT_RETRY_MS;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(ms)) return DEFAULT_RETRY_MS;
  return Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, ms));
}
