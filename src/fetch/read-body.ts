// Reading a response body once: wire bytes counted, Content-Encoding undone while streaming, and the
// cap applied to the decoded size as it grows, so a compression bomb stops at the cap, and the fetch's
// deadline in force until the last decoded byte: the socket may have delivered everything long before
// the decoders are done with it, and undici's abort no longer reaches a body it finished receiving.
import type { Readable } from 'node:stream';
import { Transform, pipeline } from 'node:stream';
import { BodyTooLargeError, decodersFor, parseContentEncoding } from './content-decoding.ts';

export interface BodyLimit {
  maxBytes: number;
  /** 'fail' throws BodyTooLargeError; 'truncate' keeps the first maxBytes (robots.txt, as Google does). */
  onOverflow: 'fail' | 'truncate';
}

export interface BodyBytes {
  /** The decoded body. */
  bytes: Buffer;
  /** Bytes received on the wire (before content decoding). */
  transferredBytes: number;
  truncated: boolean;
}

export async function readBody(
  body: Readable,
  contentEncoding: string | null,
  limit: BodyLimit,
  deadline?: AbortSignal,
): Promise<BodyBytes> {
  const codings = parseContentEncoding(contentEncoding);
  let transferredBytes = 0;
  let decoded: Readable = body;
  if (codings.length > 0) {
    let decoders;
    try {
      decoders = decodersFor(codings, limit.maxBytes);
    } catch (err) {
      abandonBody(body);
      throw err;
    }
    const countWire = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        transferredBytes += chunk.length;
        callback(null, chunk);
      },
    });
    // Errors surface through the iteration of the last stream; the callback only has to exist.
    decoded = pipeline([body, countWire, ...decoders], () => {}) as unknown as Readable;
  }
  // Destroying the last stream fails the pipeline, which destroys every decoder (and zstd's thread).
  const stop = () => decoded.destroy(deadline?.reason ?? new Error('aborted'));
  if (deadline?.aborted) stop();
  deadline?.addEventListener('abort', stop, { once: true });

  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of decoded) {
      if (codings.length === 0) transferredBytes += chunk.length;
      if (size + chunk.length > limit.maxBytes) {
        if (limit.onOverflow === 'fail') throw new BodyTooLargeError(limit.maxBytes);
        chunks.push(chunk.subarray(0, limit.maxBytes - size));
        size = limit.maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    if (!(err instanceof BodyTooLargeError && limit.onOverflow === 'truncate')) throw err;
    truncated = true;
  } finally {
    deadline?.removeEventListener('abort', stop);
    abandonBody(body);
  }
  return { bytes: Buffer.concat(chunks, size), transferredBytes, truncated };
}

/** Drops a body that will not be (fully) read. undici reports that as an error nobody needs. */
export function abandonBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}
