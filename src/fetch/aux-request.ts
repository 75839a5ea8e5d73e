// One small request made for the checks (robots.txt, the 404 probe, favicon, sitemap). Same guard,
// redirects and limits as the page, but it never throws: a failure becomes the `error` sentence (only
// the context's onRequest hook may reject it).
import type { AddressPolicy } from './address-guard.ts';
import { parseContentType } from './content-type.ts';
import { toFetchError } from './fetch-failure.ts';
import { flattenHeaders } from './headers.ts';
import type { FetchOptions } from './options.ts';
import { readBody, type BodyLimit } from './read-body.ts';
import { DUMP_LIMIT_BYTES, followRedirects, type ChainRequest } from './redirect-chain.ts';
import type { AuxResponse } from './types.ts';

export interface AuxContext {
  options: FetchOptions;
  policy: AddressPolicy;
  /** One deadline for all of an origin's auxiliary requests. */
  signal: AbortSignal;
  /**
   * Awaited before every HTTP request auxRequest sends, each redirect hop included, with the URL about
   * to be requested: a crawl takes its host's turn here and counts the request. Time spent waiting
   * counts against `signal`'s deadline. A rejection is not turned into an error sentence: auxRequest
   * rejects with it, and sends nothing more.
   */
  onRequest?: (url: URL) => Promise<void>;
}

export interface AuxResult {
  response: AuxResponse;
  /** The status the server answered with, even when reading the body then failed. */
  answeredStatus: number | null;
  /** The decoded body bytes, when `read` was asked for and the answer was 2xx. */
  bytes: Buffer | null;
  /** The Content-Type charset label, for decoding `bytes`. */
  charsetLabel: string | null;
  /** `bytes` stops at the limit (only with onOverflow 'truncate'). */
  truncated: boolean;
}

const SUBJECT = 'The response';

/** GET `url` following redirects; with `read`, the body of a 2xx answer is read within that limit. */
export async function auxRequest(url: string, context: AuxContext, read: BodyLimit | null): Promise<AuxResult> {
  const { options, signal } = context;
  const start = new URL(url);
  // How far the request got, so a failure can say where and keep the status already seen.
  const progress = { url: start, readingBody: false, answeredStatus: null as number | null };
  try {
    const request: ChainRequest = {
      policy: context.policy,
      userAgent: options.userAgent,
      accept: '*/*',
      timeoutMs: options.timeoutMs,
      signal,
      subject: SUBJECT,
      hostHeaders: options.hostHeaders,
    };
    const onRequest = context.onRequest;
    if (onRequest !== undefined) {
      request.beforeRequest = async (url) => {
        progress.url = url;
        await onRequest(url).catch((error: unknown) => {
          throw new HookRejection('onRequest rejected', { cause: error });
        });
      };
    }
    const chain = await followRedirects(start, request);
    const { response } = chain;
    progress.url = chain.url;
    progress.readingBody = true;
    progress.answeredStatus = response.statusCode;
    const headers = flattenHeaders(response.headers);
    const contentType = headers['content-type'] ?? null;
    const auxResponse: AuxResponse = {
      url,
      statusCode: response.statusCode,
      finalUrl: chain.url.href,
      redirected: chain.redirects.length > 0,
      contentType,
      body: null,
      error: null,
    };
    if (!read || response.statusCode < 200 || response.statusCode >= 300) {
      await response.body.dump({ limit: DUMP_LIMIT_BYTES, signal });
      return { response: auxResponse, answeredStatus: response.statusCode, bytes: null, charsetLabel: null, truncated: false };
    }
    const body = await readBody(response.body, headers['content-encoding'] ?? null, read, signal);
    const { charset } = parseContentType(contentType);
    return {
      response: auxResponse,
      answeredStatus: response.statusCode,
      bytes: body.bytes,
      charsetLabel: charset,
      truncated: body.truncated,
    };
  } catch (err) {
    if (err instanceof HookRejection) throw err.cause;
    const { reason } = toFetchError(err, {
      url: progress.url,
      timeoutMs: options.timeoutMs,
      signal,
      readingBody: progress.readingBody,
      subject: SUBJECT,
    });
    return {
      response: {
        url,
        statusCode: null,
        finalUrl: progress.url.href,
        redirected: progress.url.href !== start.href,
        contentType: null,
        body: null,
        error: reason,
      },
      answeredStatus: progress.answeredStatus,
      bytes: null,
      charsetLabel: null,
      truncated: false,
    };
  }
}

/** What the onRequest hook rejected with, carried past the catch that turns failures into sentences. */
class HookRejection extends Error {}
