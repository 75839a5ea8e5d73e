import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ZSTD_BOMB_BASE64, ZSTD_PAGE_HEX, ZSTD_PAGE_HTML } from '../../test/fetch/fixtures/zstd-frames.ts';
import { BodyTooLargeError, UnsupportedEncodingError, isContentDecodingError } from './content-decoding.ts';
import { readBody } from './read-body.ts';

/** A body arriving in chunks of `size` bytes, like a socket would deliver it. */
function chunked(bytes: Buffer, size = 1000): Readable {
  return Readable.from(chunksOf(bytes, size));
}

function chunksOf(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

/** Like `chunked`, and tells how many chunks were pulled from it. */
function countedChunks(bytes: Buffer, size: number) {
  const chunks = chunksOf(bytes, size);
  const counter = { pulled: 0, total: chunks.length };
  const stream = Readable.from(
    (function* () {
      for (const chunk of chunks) {
        counter.pulled++;
        yield chunk;
      }
    })(),
  );
  return { stream, counter };
}

const html = Buffer.from('<!doctype html><title>compressed</title>'.repeat(50));
const fail = (maxBytes: number) => ({ maxBytes, onOverflow: 'fail' as const });

describe('readBody', () => {
  it('reads an identity body and counts its bytes', async () => {
    const body = await readBody(chunked(html), null, fail(1e6));
    expect(body.bytes.equals(html)).toBe(true);
    expect(body.transferredBytes).toBe(html.length);
    expect(body.truncated).toBe(false);
  });

  it.each([
    ['gzip', zlib.gzipSync(html)],
    ['x-gzip', zlib.gzipSync(html)],
    ['deflate', zlib.deflateSync(html)],
    ['br', zlib.brotliCompressSync(html)],
    ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(html))],
  ])('undoes %s and counts wire bytes separately', async (coding, wire) => {
    const body = await readBody(chunked(wire, 50), coding, fail(1e6));
    expect(body.bytes.equals(html)).toBe(true);
    expect(body.transferredBytes).toBe(wire.length);
  });

  it('undoes zstd (a frame made by the zstd CLI)', async () => {
    const wire = Buffer.from(ZSTD_PAGE_HEX, 'hex');
    const body = await readBody(chunked(wire, 7), 'zstd', fail(1e6));
    expect(body.bytes.toString()).toBe(ZSTD_PAGE_HTML);
    expect(body.transferredBytes).toBe(wire.length);
  });

  it('stops a gzip bomb at the cap, long before the end of its input', async () => {
    // 16 concatenated gzip members of 64 MiB of zeros each: 1 GiB once inflated.
    const member = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const { stream, counter } = countedChunks(Buffer.concat(Array(16).fill(member)), 1024);
    await expect(readBody(stream, 'gzip', fail(1024 * 1024))).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(counter.pulled).toBeLessThan(counter.total / 2);
  });

  it('stops a zstd bomb at the cap, long before the end of its input', async () => {
    // 256 concatenated frames of 64 MiB of zeros each: 16 GiB once decoded. (The streams between the
    // socket and zstd's thread read up to about 80 KiB ahead while the thread starts: 1,300 chunks.)
    const frame = Buffer.from(ZSTD_BOMB_BASE64, 'base64');
    const { stream, counter } = countedChunks(Buffer.concat(Array(256).fill(frame)), 64);
    await expect(readBody(stream, 'zstd', fail(1024 * 1024))).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(counter.pulled).toBeLessThan(counter.total / 2);
  });

  it('fails an identity body over the cap', async () => {
    await expect(readBody(chunked(html), null, fail(100))).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('keeps the first maxBytes when asked to truncate', async () => {
    const body = await readBody(chunked(html), null, { maxBytes: 100, onOverflow: 'truncate' });
    expect(body.bytes.equals(html.subarray(0, 100))).toBe(true);
    expect(body.truncated).toBe(true);
    const bomb = Buffer.from(ZSTD_BOMB_BASE64, 'base64');
    const truncatedBomb = await readBody(chunked(bomb), 'zstd', { maxBytes: 1000, onOverflow: 'truncate' });
    expect(truncatedBomb.truncated).toBe(true);
    expect(truncatedBomb.bytes.length).toBeLessThanOrEqual(1000);
  });

  it('refuses an unknown coding', async () => {
    await expect(readBody(chunked(html), 'compress', fail(1e6))).rejects.toBeInstanceOf(UnsupportedEncodingError);
  });

  it.each([
    ['gzip', Buffer.from('not gzip at all')],
    ['br', Buffer.from('ffffffffffff', 'hex')],
    // A reserved block type (caught by the frame guard), and a compressed block of garbage (by fzstd).
    ['zstd', Buffer.from('28b52ffd0050ffffffffff', 'hex')],
    ['zstd', Buffer.from('28b52ffd00502d0000ffffffffff', 'hex')],
  ])('reports a corrupt %s body as a decoding error', async (coding, wire) => {
    const failure = await readBody(chunked(wire), coding, fail(1e6)).catch((err: unknown) => err);
    expect(isContentDecodingError(failure)).toBe(true);
  });
});
