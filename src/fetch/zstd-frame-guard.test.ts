import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ZSTD_PAGE_HEX, ZSTD_PAGE_HTML } from '../../test/fetch/fixtures/zstd-frames.ts';
import { BodyTooLargeError } from './content-decoding-errors.ts';
import { readBody } from './read-body.ts';
import { ZstdFrameError, ZstdFrameGuard, ZstdWindowTooLargeError } from './zstd-frame-guard.ts';

/** Everything the guard passes through, fed `size` bytes at a time. */
async function guarded(bytes: Buffer, size = 1, maxBytes = 1 << 20): Promise<Buffer> {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(new ZstdFrameGuard(maxBytes))) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

const page = Buffer.from(ZSTD_PAGE_HEX, 'hex');
/** A skippable frame (magic 0x184D2A5E) of 3 bytes. */
const skippable = Buffer.from('5e2a4d1803000000abcdef', 'hex');
/** Frame header: descriptor, then window descriptor (and content size fields as the descriptor says). */
const frame = (header: string, blocks = '010000') => Buffer.from(`28b52ffd${header}${blocks}`, 'hex');

describe('ZstdFrameGuard', () => {
  it('passes a CLI frame (8 MiB window, checksum) and skippable frames, whatever the chunking', async () => {
    const body = Buffer.concat([page, skippable, page]);
    for (const size of [1, 3, 7, body.length]) expect((await guarded(body, size)).equals(body)).toBe(true);
    const decoded = await readBody(Readable.from([body]), 'zstd', { maxBytes: 1e6, onOverflow: 'fail' });
    expect(decoded.bytes.toString()).toBe(ZSTD_PAGE_HTML + ZSTD_PAGE_HTML);
  });

  it('refuses a window over 8 MiB, in any frame of the body', async () => {
    // Window descriptor 0x69: 8 MiB + 1 MiB.
    await expect(guarded(Buffer.concat([page, frame('0069')]))).rejects.toBeInstanceOf(ZstdWindowTooLargeError);
    // A single-segment frame's window is its content size: 0xffff + 256 bytes passes...
    expect((await guarded(frame('60ffff'))).length).toBe(10);
    // ...16 MiB does not, even where a page may be 32 MiB.
    await expect(guarded(frame('a000000001'), 1, 32 << 20)).rejects.toBeInstanceOf(ZstdWindowTooLargeError);
  });

  it('refuses a frame that declares more content than a page may have', async () => {
    // Content size flag 2 (4 bytes), not single segment: 2 MiB declared, 1 MiB allowed.
    await expect(guarded(frame('805000002000'))).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('refuses what is not zstd', async () => {
    await expect(guarded(Buffer.from('<html>not zstd</html>'))).rejects.toBeInstanceOf(ZstdFrameError);
    await expect(guarded(frame('0850'))).rejects.toBeInstanceOf(ZstdFrameError); // reserved bit
    await expect(guarded(frame('0050', '070000'))).rejects.toBeInstanceOf(ZstdFrameError); // reserved block type
  });
});
