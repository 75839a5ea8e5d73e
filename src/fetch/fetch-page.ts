// Fetch the page a report is about: redirects followed and recorded, one deadline, a size cap, the
// private-address guard, content decoding and charset sniffing. The result is plain data.
import type { Dispatcher } from 'undici';
import { addressPolicy, type AddressPolicy } from './address-guard.ts';
import { httpVersionFor } from './agents.ts';
import { sniffCharset } from './charset.ts';
import { decodePage } from './decode-page.ts';
import { isHtmlMimeType, parseContentType } from './content-type.ts';
import { FetchError, PAGE_SUBJECT, pageTooLargeReason } from './fetch-error.ts';
import { toFetchError } from './fetch-failure.ts';
import { flattenHeaders, headerLines } from './headers.ts';
import { looksLikeHtml } from './html-sniff.ts';
import { parseHttpUrl } from './http-url.ts';
import type { FetchOptions } from './options.ts';
import { abandonBody, readBody } from './read-body.ts';
import { followRedirects } from './redirect-chain.ts';
import type { FetchedPage, RedirectHop, UndecodedPage } from './types.ts';

const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
const SUBJECT = PAGE_SUBJECT;

export async function fetchPage(url: string, options: FetchOptions): Promise<FetchedPage> {
  return decodePage(await fetchPageBody(url, options));
}

/** fetchPage without decoding the body: the analysis threads decode it (decode-page.ts). */
export async function fetchPageBody(url: string, options: FetchOptions): Promise<UndecodedPage> {
  return readPage(await openPage(url, options), options);
}

/** A page whose final response has arrived, its body not read yet: the caller reads or drops it. */
export interface OpenedPage {
  requested: URL;
  finalUrl: URL;
  redirects: RedirectHop[];
  statusCode: number;
  /** names lower-case, repeated headers joined with ", " */
  headers: Record<string, string>;
  contentType: string | null;
  /** the media type alone, lower-case, or null */
  mimeType: string | null;
  response: Dispatcher.ResponseData;
  policy: AddressPolicy;
  started: number;
  ttfbMs: number;
  signal: AbortSignal;
}

/**
 * Requests the page and follows its redirects (unless `follow` is false), up to the final response's
 * headers. The deadline covers the body read by readPage too.
 */
export async function openPage(url: string, options: FetchOptions, follow = true): Promise<OpenedPage> {
  const started = performance.now();
  const requested = parseHttpUrl(url);
  const policy = addressPolicy(options);
  const signal = AbortSignal.timeout(options.timeoutMs);

  const { response, url: finalUrl, redirects } = await followRedirects(requested, {
    policy,
    userAgent: options.userAgent,
    accept: ACCEPT_HTML,
    timeoutMs: options.timeoutMs,
    signal,
    subject: SUBJECT,
    follow,
    hostHeaders: options.hostHeaders,
  });
  const headers = flattenHeaders(response.headers);
  const contentType = headers['content-type'] ?? null;
  const { mimeType } = parseContentType(contentType);
  const ttfbMs = performance.now() - started;
  return { requested, finalUrl, redirects, statusCode: response.statusCode, headers, contentType, mimeType, response, policy, started, ttfbMs, signal };
}

/** Reads the opened page's body: HTML only, within the size cap and the deadline. */
export async function readPage(opened: OpenedPage, options: FetchOptions): Promise<UndecodedPage> {
  const { response, headers, contentType, mimeType, finalUrl, signal, policy } = opened;
  const { charset: headerCharset } = parseContentType(contentType);
  const successful = response.statusCode >= 200 && response.statusCode < 300;
  if (successful && mimeType !== null && !isHtmlMimeType(mimeType)) {
    abandonBody(response.body);
    throw new FetchError('not_html', `The page is ${mimeType}, not HTML.`);
  }
  const contentEncoding = headers['content-encoding']?.trim().toLowerCase() || null;
  const declaredLength = Number(headers['content-length']);
  if (contentEncoding === null && declaredLength > options.maxBytes) {
    abandonBody(response.body);
    throw new FetchError('too_large', pageTooLargeReason(options.maxBytes));
  }

  let body;
  try {
    body = await readBody(response.body, contentEncoding, { maxBytes: options.maxBytes, onOverflow: 'fail' }, signal);
  } catch (err) {
    throw toFetchError(err, { url: finalUrl, timeoutMs: options.timeoutMs, signal, readingBody: true, subject: SUBJECT });
  }
  const totalMs = performance.now() - opened.started;

  if (successful && mimeType === null && !looksLikeHtml(body.bytes)) {
    throw new FetchError('not_html', 'The page has no Content-Type and does not look like HTML.');
  }
  const decision = sniffCharset(body.bytes, headerCharset);
  return {
    requestedUrl: opened.requested.href,
    finalUrl: finalUrl.href,
    redirects: opened.redirects,
    statusCode: response.statusCode,
    headers,
    xRobotsTag: headerLines(response.headers, 'x-robots-tag'),
    contentType,
    mimeType,
    charset: decision.charset,
    charsetSource: decision.source,
    metaCharsetInFirst1024Bytes: decision.metaCharsetInFirst1024Bytes,
    contentEncoding,
    httpVersion: httpVersionFor(finalUrl, policy),
    transferredBytes: body.transferredBytes,
    bodyBytes: body.bytes.length,
    body: body.bytes,
    ttfbMs: Math.round(opened.ttfbMs),
    totalMs: Math.round(totalMs),
  };
}
