// Checking one external link (docs/crawls.md, "External links"): HEAD, then GET when the HEAD is
// refused (405, 501), its body abandoned unread; redirects followed by hand, up to 5, each hop through
// the guarded agent (the address guard on the address actually connected to); at most
// EXTERNAL_REQUESTS_PER_HOST requests at once to each host from this process; one deadline for the
// whole check. Never throws for what the network does: an unreachable URL is an outcome with an error.
import type { Dispatcher } from 'undici';
import { addressPolicy, type AddressPolicy } from '../fetch/address-guard.ts';
import { toFetchError } from '../fetch/fetch-failure.ts';
import type { FetchOptions } from '../fetch/options.ts';
import { abandonBody } from '../fetch/read-body.ts';
import { DUMP_LIMIT_BYTES, followRedirects, redirectLocation } from '../fetch/redirect-chain.ts';
import { externalHosts, type HostSlots } from './external-hosts.ts';

/** Redirects an external link may take; the next one is not followed. */
export const MAX_EXTERNAL_REDIRECTS = 5;
/** The error of a link that redirected more than MAX_EXTERNAL_REDIRECTS times (as the API names it). */
export const TOO_MANY_REDIRECTS = 'too many redirects';

const SUBJECT = 'The response';
/** Answers to a HEAD that say "ask with GET": the method is not allowed, or not implemented. */
const HEAD_REFUSED = new Set([405, 501]);
/** The signal of a failure before the deadline started (it did not time out). */
const NEVER_ABORTED = new AbortController().signal;

export interface ExternalOutcome {
  /** the final answer's status after redirects; null when unreachable */
  status_code: number | null;
  /** where its redirects ended (the last URL asked); null when it did not redirect */
  redirect_target: string | null;
  content_type: string | null;
  /** why it is unreachable, or too many redirects; else null */
  error: string | null;
}

export interface ExternalCheckOptions {
  /** the deadline, the address guard's settings and the User-Agent; request headers are never sent */
  fetch: Pick<FetchOptions, 'timeoutMs' | 'userAgent' | 'allowPrivate' | 'publicAddressesForTests' | 'allowedAddresses'>;
  /** this process's slots per external host (a test gives its own) */
  slots?: HostSlots;
}

interface Hop {
  policy: AddressPolicy;
  userAgent: string;
  timeoutMs: number;
  signal: AbortSignal;
}

export async function checkExternal(url: string, options: ExternalCheckOptions): Promise<ExternalOutcome> {
  const slots = options.slots ?? externalHosts;
  const policy = addressPolicy(options.fetch);
  const { timeoutMs, userAgent } = options.fetch;
  let current = new URL(url);
  let redirects = 0;
  // Started once the first request may go: waiting for a busy host's slot is not the link's time.
  let signal: AbortSignal | undefined;
  const ended = (outcome: Omit<ExternalOutcome, 'redirect_target'>): ExternalOutcome => ({ ...outcome, redirect_target: redirects > 0 ? current.href : null });
  for (;;) {
    let release: (() => void) | undefined;
    let answer: Answer;
    try {
      release = await slots.acquire(current.host, signal);
      signal ??= AbortSignal.timeout(timeoutMs);
      answer = await ask(current, { policy, userAgent, timeoutMs, signal });
    } catch (error) {
      const failure = toFetchError(error, { url: current, timeoutMs, signal: signal ?? NEVER_ABORTED, readingBody: false, subject: SUBJECT });
      return ended({ status_code: null, content_type: null, error: failure.reason });
    } finally {
      release?.();
    }
    if (answer.location === null) return ended({ status_code: answer.statusCode, content_type: answer.contentType, error: null });
    if (redirects === MAX_EXTERNAL_REDIRECTS) return ended({ status_code: answer.statusCode, content_type: answer.contentType, error: TOO_MANY_REDIRECTS });
    redirects++;
    current = answer.location;
  }
}

interface Answer {
  statusCode: number;
  contentType: string | null;
  /** where a redirect points (absolute http(s)); null for any other answer */
  location: URL | null;
}

/** One URL asked: HEAD, then GET when the HEAD is refused; no body is read. */
async function ask(url: URL, hop: Hop): Promise<Answer> {
  const head = await sendHead(url, hop);
  if (!HEAD_REFUSED.has(head.statusCode)) return answerOf(head, url, hop, false);
  await drop(head, hop, false);
  // The same guarded GET a page's hop is (follow: false: this loop follows, up to its own bound).
  const { response } = await followRedirects(url, { policy: hop.policy, userAgent: hop.userAgent, accept: '*/*', timeoutMs: hop.timeoutMs, signal: hop.signal, subject: SUBJECT, follow: false });
  return answerOf(response, url, hop, true);
}

async function answerOf(response: Dispatcher.ResponseData, url: URL, hop: Hop, get: boolean): Promise<Answer> {
  const raw = response.headers['content-type'];
  const contentType = (Array.isArray(raw) ? raw[0] : raw) ?? null;
  const location = redirectLocation(response, url);
  await drop(response, hop, get);
  return { statusCode: response.statusCode, contentType, location };
}

/** The HEAD request itself, a hop of the guarded chain (this loop follows its redirects). */
async function sendHead(url: URL, hop: Hop): Promise<Dispatcher.ResponseData> {
  const { response } = await followRedirects(url, { policy: hop.policy, userAgent: hop.userAgent, accept: '*/*', timeoutMs: hop.timeoutMs, signal: hop.signal, subject: SUBJECT, follow: false, method: 'HEAD' });
  return response;
}

/** A HEAD has no body to read; a GET's is abandoned unread, however large. */
async function drop(response: Dispatcher.ResponseData, hop: Hop, get: boolean): Promise<void> {
  if (get) return abandonBody(response.body);
  try {
    await response.body.dump({ limit: DUMP_LIMIT_BYTES, signal: hop.signal });
  } catch {
    abandonBody(response.body);
  }
}
