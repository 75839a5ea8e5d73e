// Fetch the page a report is about: redirects followed and recorded, one deadline, a size cap, the
// private-address guard, content decoding and charset sniffing. The result is plain data.
import { addressPolicy } from './address-guard.ts';
import { httpVersionFor } from './agents.ts';
import { sniffCharset } from './charset.ts';
import { decodePage } from './decode-page.ts';
import { isHtmlMimeType, parseContentType } from './content-type.ts';
import { FetchError } from './fetch-error.ts';
import { toFetchError } from './fetch-failure.ts';
import { flattenHeaders, headerLines } from './headers.ts';
import { looksLikeHtml } from './html-sniff.ts';
import { parseHttpUrl } from './http-url.ts';
import type { FetchOptions } from './options.ts';
import { abandonBody, readBody } from './read-body.ts';
import { followRedirects } from './redirect-chain.ts';
import type { FetchedPage, UndecodedPage } from './types.ts';

const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
const SUBJECT = 'The page';

export async function fetchPage(url: string, options: FetchOptions): Promise<FetchedPage> {
  return decodePage(await fetchPageBody(url, options));
}

/** fetchPage without decoding the body: the analysis threads decode it (decode-page.ts). */
export async function fetchPageBody(url: string, options: FetchOptions): Promise<UndecodedPage> {
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
  });
  const ttfbMs = performance.now() - started;

  const headers = flattenHeaders(response.headers);
  const contentType = headers['content-type'] ?? null;
  const { mimeType, charset: headerCharset } = parseContentType(contentType);
  const successful = response.statusCode >= 200 && response.statusCode < 300;
  if (successful && mimeType !== null && !isHtmlMimeType(mimeType)) {
    abandonBody(response.body);
    throw new FetchError('not_html', `The page is ${mimeType}, not HTML.`);
  }
  const contentEncoding = headers['content-encoding']?.trim().toLowerCase() || null;
  const declaredLength = Number(headers['content-length']);
  if (contentEncoding === null && declaredLength > options.maxBytes) {
    abandonBody(response.body);
    throw new FetchError('too_large', `${SUBJECT} is larger than ${options.maxBytes} bytes.`);
  }

  let body;
  try {
    body = await readBody(response.body, contentEncoding, { maxBytes: options.maxBytes, onOverflow: 'fail' }, signal);
  } catch (err) {
    throw toFetchError(err, { url: finalUrl, timeoutMs: options.timeoutMs, signal, readingBody: true, subject: SUBJECT });
  }
  const totalMs = performance.now() - started;

  if (successful && mimeType === null && !looksLikeHtml(body.bytes)) {
    throw new FetchError('not_html', 'The page has no Content-Type and does not look like HTML.');
  }
  const decision = sniffCharset(body.bytes, headerCharset);
  return {
    requestedUrl: requested.href,
    finalUrl: finalUrl.href,
    redirects,
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
    ttfbMs: Math.round(ttfbMs),
    totalMs: Math.round(totalMs),
  };
}
