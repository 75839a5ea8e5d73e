// Streams that undo a Content-Encoding. gzip, deflate and br come from node:zlib; zstd from fzstd on
// a thread of its own (zstd-decoder.ts), because Node 20's zlib has none.
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { TooManyEncodingsError, UnsupportedEncodingError, ZstdDataError } from './content-decoding-errors.ts';
import { ZstdDecoder } from './zstd-decoder.ts';
import { ZstdFrameError, ZstdFrameGuard } from './zstd-frame-guard.ts';

export const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export { BodyTooLargeError, TooManyEncodingsError, UnsupportedEncodingError } from './content-decoding-errors.ts';

/**
 * Codings undone for one body at most, as curl (5) does; browsers stop at a few too. Each is a
 * decoder of its own: a header listing gzip 4,000 times once took 150 s and a core to read 98 KB.
 */
const MAX_CODINGS = 5;

/** A body that does not decode with its declared coding (corrupt gzip, br or zstd). */
export function isContentDecodingError(err: unknown): boolean {
  if (err instanceof ZstdDataError || err instanceof ZstdFrameError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  // node:zlib reports zlib failures as Z_DATA_ERROR, Z_BUF_ERROR..., brotli ones as ERR__ERROR_FORMAT_...
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR'));
}

// Browsers accept truncated gzip/deflate streams; flushing instead of failing at the end does too.
const LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };

/**
 * The codings listed in a Content-Encoding header, in the order they were applied; "identity" and
 * empty entries dropped.
 */
export function parseContentEncoding(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/**
 * The decoding streams for the codings, to apply in the order returned (last applied coding first).
 * Throws, before making any, for too many codings or one it cannot undo.
 */
export function decodersFor(codings: string[], maxBytes: number): Transform[] {
  if (codings.length > MAX_CODINGS) throw new TooManyEncodingsError(codings.length, MAX_CODINGS);
  return [...codings].reverse().flatMap((coding) => decoderFor(coding, maxBytes));
}

function decoderFor(coding: string, maxBytes: number): Transform[] {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return [zlib.createGunzip(LENIENT)];
    case 'deflate':
      return [zlib.createInflate(LENIENT)];
    case 'br':
      return [zlib.createBrotliDecompress()];
    case 'zstd':
      return [new ZstdFrameGuard(maxBytes), new ZstdDecoder(maxBytes)];
    default:
      throw new UnsupportedEncodingError(coding);
  }
}
