// What a crawl's requests carry (docs/crawls.md, "Scope and request headers"): its user agent preset's
// User-Agent on every request, and its request headers, opened from headers_sealed, on the requests
// to the crawled host only, in list mode to each listed URL's host (FetchOptions.hostHeaders checks
// every hop). The headers are sealed with PAGEGRADE_SECRET_KEY as webhook secrets are; only their
// names are ever shown.
import { CRAWL_USER_AGENTS, type CrawlRow, type CrawlUserAgent } from '../db/tables/crawl.table.ts';
import type { FetchOptions } from '../fetch/options.ts';
import { createSecretBox, type SecretBox } from '../security/secret-box.ts';
import { sendableHeaders } from './crawl-headers.ts';
import type { Parsed } from './crawl-scope.ts';
import { crawlAgent } from './user-agents.ts';
import { listedUrlsOf } from './crawl-url.ts';

/** The box the headers are sealed in, made on first use (the key may be resolved only then). */
export type CrawlSecrets = () => SecretBox;

/** One box for every part of the crawl that seals or opens headers, its key resolved once. */
export function crawlSecrets(secretKey: string | (() => string)): CrawlSecrets {
  let box: SecretBox | undefined;
  return () => (box ??= createSecretBox(typeof secretKey === 'string' ? secretKey : secretKey()));
}

export function parseUserAgentPreset(input: string | undefined): Parsed<CrawlUserAgent> {
  if (input === undefined) return { ok: true, value: 'default' };
  if ((CRAWL_USER_AGENTS as readonly string[]).includes(input)) return { ok: true, value: input as CrawlUserAgent };
  return { ok: false, message: `The user_agent must be one of: ${CRAWL_USER_AGENTS.join(', ')}.` };
}

/** The headers (names as given) sealed for headers_sealed. */
export function sealHeaders(secrets: CrawlSecrets, headers: Readonly<Record<string, string>>): string {
  return secrets().encrypt(JSON.stringify(headers));
}

export type CrawlFetchOptions = { ok: true; options: FetchOptions } | { ok: false; error: string };

type RequestingCrawl = Pick<CrawlRow, 'project' | 'user_agent' | 'headers_sealed'> & Partial<Pick<CrawlRow, 'mode' | 'urls'>>;

/** Per crawl row (a work job reads its crawl once a slice): the headers are opened once for its pages. */
const opened = new WeakMap<RequestingCrawl, CrawlFetchOptions>();

/**
 * The fetch options of the crawl's requests: `base` with the preset's User-Agent and the headers for
 * the crawled host (a list crawl's: every listed host). Not ok when the headers cannot be opened (PAGEGRADE_SECRET_KEY changed): the
 * crawl must not go on without them, as it would fetch another site than the one asked for.
 */
export function crawlFetchOptions(crawl: RequestingCrawl, base: FetchOptions, secrets?: CrawlSecrets): CrawlFetchOptions {
  const known = opened.get(crawl);
  if (known !== undefined) return known;
  const result = openRequests(crawl, base, secrets);
  opened.set(crawl, result);
  return result;
}

function openRequests(crawl: RequestingCrawl, base: FetchOptions, secrets?: CrawlSecrets): CrawlFetchOptions {
  const options: FetchOptions = { ...base, userAgent: crawlAgent(crawl.user_agent, base.userAgent).userAgent };
  if (crawl.headers_sealed === null) return { ok: true, options };
  if (secrets === undefined) return { ok: false, error: 'The crawl\'s request headers cannot be read: this process has no secret key.' };
  let headers: Record<string, string>;
  try {
    headers = JSON.parse(secrets().decrypt(crawl.headers_sealed)) as Record<string, string>;
  } catch (error) {
    return { ok: false, error: `The crawl's request headers cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const hosts = listedUrlsOf(crawl)?.hosts ?? [crawl.project];
  return { ok: true, options: { ...options, hostHeaders: { hosts, headers: sendableHeaders(headers) } } };
}
