// Turning whatever went wrong (undici, node:net, DNS, TLS, zlib, the guard) into a FetchError whose
// reason a user can act on.
import { AddressRefusedError } from './address-guard.ts';
import { BodyTooLargeError, TooManyEncodingsError, UnsupportedEncodingError, isContentDecodingError } from './content-decoding.ts';
import { ZSTD_MAX_WINDOW_BYTES, ZstdWindowTooLargeError } from './zstd-frame-guard.ts';
import { FetchError, PAGE_SUBJECT, pageTooLargeReason } from './fetch-error.ts';

export interface FailureContext {
  /** The URL being requested when it failed. */
  url: URL;
  /** The whole-fetch deadline (for the message) and its signal (to tell a timeout from other aborts). */
  timeoutMs: number;
  signal: AbortSignal;
  /** Whether the response headers had arrived (the failure happened while reading the body). */
  readingBody: boolean;
  /** "The page" (PAGE_SUBJECT) or "The response": how too_large messages name what was too large. */
  subject: string;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME', 'EAI_FAIL']);
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EHOSTDOWN', 'ENETDOWN']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const BAD_RESPONSE_CODES = new Set([
  'UND_ERR_HEADERS_OVERFLOW',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_RES_EXCEEDED_MAX_SIZE',
  'UND_ERR_INFO',
  'ERR_HTTP2_PROTOCOL_ERROR',
  'ERR_HTTP2_STREAM_ERROR',
]);

export function toFetchError(err: unknown, context: FailureContext): FetchError {
  if (err instanceof FetchError) return err;
  const { url } = context;
  const host = url.host;
  if (context.signal.aborted) {
    const what = context.readingBody ? 'send the whole page' : 'answer';
    return new FetchError('timeout', `The server at ${host} did not ${what} within ${context.timeoutMs} ms.`, { cause: err });
  }
  if (err instanceof AddressRefusedError) return new FetchError('private_address', err.reason, { cause: err });
  if (err instanceof BodyTooLargeError) {
    // A page names the setting that holds its limit; the checks' small requests keep their byte count.
    const reason = context.subject === PAGE_SUBJECT ? pageTooLargeReason(err.maxBytes) : `${context.subject} is larger than ${err.maxBytes} bytes.`;
    return new FetchError('too_large', reason, { cause: err });
  }
  if (err instanceof UnsupportedEncodingError) {
    return new FetchError('bad_response', `The server at ${host} used an unsupported Content-Encoding (${err.coding}).`, { cause: err });
  }
  if (err instanceof TooManyEncodingsError) {
    return new FetchError(
      'bad_response',
      `The server at ${host} listed ${err.count} Content-Encodings; pagegrade undoes at most ${err.max}, as browsers and curl do.`,
      { cause: err },
    );
  }
  if (err instanceof ZstdWindowTooLargeError) {
    const mib = (bytes: number) => `${Math.round((bytes / 2 ** 20) * 10) / 10} MiB`;
    return new FetchError(
      'bad_response',
      `The server at ${host} sent zstd data that needs a ${mib(err.windowBytes)} window; the zstd Content-Encoding allows at most ${mib(ZSTD_MAX_WINDOW_BYTES)} (RFC 9659).`,
      { cause: err },
    );
  }
  if (isContentDecodingError(err)) {
    return new FetchError('bad_response', `The server at ${host} sent a body that does not match its Content-Encoding.`, { cause: err });
  }

  const code = errorCode(err);
  const detail = errorMessage(err);
  if (DNS_CODES.has(code)) return new FetchError('dns', `${url.hostname} could not be found (DNS).`, { cause: err });
  if (code === 'ECONNREFUSED') return new FetchError('refused', `The server at ${host} refused the connection.`, { cause: err });
  if (TIMEOUT_CODES.has(code)) {
    return new FetchError('timeout', `The server at ${host} did not answer in time (${detail}).`, { cause: err });
  }
  if (isTlsCode(code)) {
    return new FetchError('tls', `The secure connection to ${host} failed: ${detail}.`, { cause: err });
  }
  if (CLOSED_CODES.has(code)) {
    return new FetchError('network', `The connection to ${host} was closed unexpectedly.`, { cause: err });
  }
  if (UNREACHABLE_CODES.has(code)) return new FetchError('network', `${host} cannot be reached (${code}).`, { cause: err });
  if (code.startsWith('HPE_') || BAD_RESPONSE_CODES.has(code)) {
    return new FetchError('bad_response', `The server at ${host} sent an invalid HTTP response (${detail}).`, { cause: err });
  }
  return new FetchError('network', `The request to ${host} failed: ${detail}.`, { cause: err });
}

/** Certificate and handshake failures as OpenSSL and Node name them. */
function isTlsCode(code: string): boolean {
  return (
    /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/.test(code) ||
    code === 'EPROTO'
  );
}

/** The code of an error, looking inside AggregateError (Happy Eyeballs tries several addresses). */
function errorCode(err: unknown): string {
  const candidate = err as { code?: unknown; errors?: unknown[]; cause?: unknown } | null;
  if (typeof candidate?.code === 'string') return candidate.code;
  if (Array.isArray(candidate?.errors) && candidate.errors.length > 0) return errorCode(candidate.errors[0]);
  if (candidate?.cause) return errorCode(candidate.cause);
  return '';
}

function errorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\.$/, '') || 'unknown error';
}
