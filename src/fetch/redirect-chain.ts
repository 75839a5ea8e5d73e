// GET (or HEAD) a URL and follow its redirects by hand, so every hop is recorded and every new
// connection goes through the guarded agent. Used for the page, the origin's auxiliary files and the
// external links a crawl checks alike.
import { isUtf8 } from 'node:buffer';
import { request, type Dispatcher } from 'undici';
import type { AddressPolicy } from './address-guard.ts';
import { agentFor } from './agents.ts';
import { ACCEPT_ENCODING } from './content-decoding.ts';
import { FetchError } from './fetch-error.ts';
import { toFetchError } from './fetch-failure.ts';
import type { HostHeaders } from './options.ts';
import type { RedirectHop } from './types.ts';

const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Bodies we do not need are drained up to this size (to reuse the connection), then cut off. */
export const DUMP_LIMIT_BYTES = 64 * 1024;

export interface ChainRequest {
  policy: AddressPolicy;
  userAgent: string;
  accept: string;
  timeoutMs: number;
  /** The deadline shared by every hop. */
  signal: AbortSignal;
  /** How failures name the body ("The page", "The response"). */
  subject: string;
  /**
   * false: a redirect is the final response, its body unread (a crawl records redirects and fetches
   * their targets as URLs of their own). Default true.
   */
  follow?: boolean;
  /** Sent only on the hops to their host (FetchOptions.hostHeaders). */
  hostHeaders?: HostHeaders;
  /** Default GET; HEAD for a link check. */
  method?: 'GET' | 'HEAD';
  /**
   * Awaited before every request, each hop included, with the URL about to be asked (a crawl takes
   * its host's turn and counts the request there); what it throws ends the chain as it is.
   */
  beforeRequest?: (url: URL) => Promise<void>;
}

export interface ChainResult {
  /** The final response; its body has not been read. */
  response: Dispatcher.ResponseData;
  url: URL;
  redirects: RedirectHop[];
}

export async function followRedirects(start: URL, chain: ChainRequest): Promise<ChainResult> {
  const redirects: RedirectHop[] = [];
  const visited = [start.href];
  let url = start;
  for (;;) {
    await chain.beforeRequest?.(url);
    const response = await send(url, chain);
    const location = REDIRECT_STATUSES.has(response.statusCode) ? locationHeader(response.headers.location) : null;
    if (location === null || chain.follow === false) return { response, url, redirects };

    await discard(response, url, chain);
    const next = resolveLocation(location, url);
    redirects.push({ url: url.href, statusCode: response.statusCode, location: next.href });
    if (visited.includes(next.href)) {
      throw new FetchError('redirect_loop', `Redirect loop: ${[...visited, next.href].join(' -> ')}`);
    }
    if (redirects.length > MAX_REDIRECTS) {
      throw new FetchError('too_many_redirects', `Too many redirects (more than ${MAX_REDIRECTS}).`);
    }
    visited.push(next.href);
    url = next;
  }
}

async function send(url: URL, chain: ChainRequest): Promise<Dispatcher.ResponseData> {
  try {
    return await request(url, {
      method: chain.method ?? 'GET',
      dispatcher: agentFor(chain.policy),
      signal: chain.signal,
      headers: headersFor(url, chain),
    });
  } catch (err) {
    throw toFetchError(err, { url, timeoutMs: chain.timeoutMs, signal: chain.signal, readingBody: false, subject: chain.subject });
  }
}

/** The fetcher's own headers, with the host's headers in their place on a hop to that host. */
function headersFor(url: URL, chain: ChainRequest): Record<string, string> {
  const own = { 'user-agent': chain.userAgent, accept: chain.accept, 'accept-encoding': ACCEPT_ENCODING };
  const extra = chain.hostHeaders;
  return extra !== undefined && extra.hosts.includes(url.host) ? { ...own, ...extra.headers } : own;
}

/** Reads and drops a redirect's body so its connection can be reused. */
async function discard(response: Dispatcher.ResponseData, url: URL, chain: ChainRequest): Promise<void> {
  try {
    await response.body.dump({ limit: DUMP_LIMIT_BYTES, signal: chain.signal });
  } catch (err) {
    throw toFetchError(err, { url, timeoutMs: chain.timeoutMs, signal: chain.signal, readingBody: true, subject: chain.subject });
  }
}

/** Where a redirect answer points, absolute; null for another answer or a Location that is no http(s) URL. */
export function redirectLocation(response: Dispatcher.ResponseData, base: URL): URL | null {
  const location = REDIRECT_STATUSES.has(response.statusCode) ? locationHeader(response.headers.location) : null;
  if (location === null) return null;
  try {
    return resolveLocation(location, base);
  } catch {
    return null;
  }
}

function resolveLocation(location: string, base: URL): URL {
  const target = URL.canParse(location, base) ? new URL(location, base) : null;
  if (!target) throw new FetchError('bad_response', `${base.href} redirects to "${location}", which is not a valid URL.`);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new FetchError('bad_response', `${base.href} redirects to ${target.href}, which is not an http(s) address.`);
  }
  return target;
}

/**
 * undici reads header bytes as Latin-1; a Location written in UTF-8 (as browsers read it) is
 * re-decoded so non-ASCII paths survive.
 */
function locationHeader(value: string | string[] | undefined): string | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return null;
  if (!/[\x80-\xff]/.test(raw)) return raw.trim();
  const bytes = Buffer.from(raw, 'latin1');
  return (isUtf8(bytes) ? bytes.toString('utf8') : raw).trim();
}
