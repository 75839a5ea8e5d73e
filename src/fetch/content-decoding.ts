// Streams that undo a Content-Encoding. gzip, deflate and br come from node:zlib; zstd from fzstd,
// because Node 20's zlib has none.
import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { Decompress } from 'fzstd';

export const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** Thrown by a decoder once its output passes the byte cap. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`body larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Thrown for a coding pagegrade cannot undo ("compress", a typo, ...). */
export class UnsupportedEncodingError extends Error {
  constructor(readonly coding: string) {
    super(`unsupported content-encoding ${coding}`);
    this.name = 'UnsupportedEncodingError';
  }
}

/** A body that does not decode with its declared coding (corrupt gzip, br or zstd). */
export function isContentDecodingError(err: unknown): boolean {
  if (err instanceof ZstdDataError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  // node:zlib reports zlib failures as Z_DATA_ERROR, Z_BUF_ERROR..., brotli ones as ERR__ERROR_FORMAT_...
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR'));
}

class ZstdDataError extends Error {
  constructor(cause: unknown) {
    super('invalid zstd data', { cause });
    this.name = 'ZstdDataError';
  }
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

/** One decoding stream per coding, to apply in the order returned (last applied coding first). */
export function decodersFor(codings: string[], maxBytes: number): Transform[] {
  return [...codings].reverse().map((coding) => decoderFor(coding, maxBytes));
}

function decoderFor(coding: string, maxBytes: number): Transform {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(LENIENT);
    case 'deflate':
      return zlib.createInflate(LENIENT);
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      return new ZstdDecoder(maxBytes);
    default:
      throw new UnsupportedEncodingError(coding);
  }
}

/**
 * fzstd decodes synchronously, one block (at most 128 KiB) per callback; a zstd bomb turns a few
 * bytes into gigabytes inside one push, so the cap is enforced here, between blocks.
 */
class ZstdDecoder extends Transform {
  private produced = 0;
  private readonly decompress: Decompress;

  constructor(private readonly maxBytes: number) {
    super();
    this.decompress = new Decompress((block) => {
      this.produced += block.length;
      if (this.produced > this.maxBytes) throw new BodyTooLargeError(this.maxBytes);
      if (block.length > 0) this.push(Buffer.from(block.buffer, block.byteOffset, block.length));
    });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    callback(this.pushInput(chunk, false));
  }

  override _flush(callback: TransformCallback): void {
    callback(this.pushInput(new Uint8Array(0), true));
  }

  private pushInput(chunk: Uint8Array, final: boolean): Error | null {
    try {
      this.decompress.push(chunk, final);
      return null;
    } catch (err) {
      return err instanceof BodyTooLargeError ? err : new ZstdDataError(err);
    }
  }
}
