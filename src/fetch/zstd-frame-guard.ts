// Reads the headers of every zstd frame in a body as it streams past, before any decoder sees it, and
// refuses a frame whose window would make the decoder allocate more than a page may be: fzstd
// allocates whatever window a frame declares (2 GB for an 18-byte body), and the byte cap on its
// output comes too late for that. Only headers are parsed (frame, block, skippable); block contents
// are skipped, so this costs next to nothing per byte.
import { Transform, type TransformCallback } from 'node:stream';
import { BodyTooLargeError } from './content-decoding-errors.ts';

/**
 * RFC 9659: the "zstd" content coding uses windows of at most 8 MB, which browsers enforce. (zstd -19
 * writing to a pipe declares exactly that for a page of a few bytes, so the limit cannot be lower.)
 */
export const ZSTD_MAX_WINDOW_BYTES = 8 * 1024 * 1024;
const MAX_BLOCK_BYTES = 128 * 1024;
const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;

/** A frame that asks for a bigger window than the zstd content coding allows. */
export class ZstdWindowTooLargeError extends Error {
  constructor(readonly windowBytes: number) {
    super(`zstd frame declares a window of ${windowBytes} bytes, over the ${ZSTD_MAX_WINDOW_BYTES} allowed`);
    this.name = 'ZstdWindowTooLargeError';
  }
}

/** Headers that are not zstd's (bad magic, reserved bits): the body does not match its coding. */
export class ZstdFrameError extends Error {
  constructor(message: string) {
    super(`invalid zstd data: ${message}`);
    this.name = 'ZstdFrameError';
  }
}

interface FrameHeader {
  /** Header bytes after the magic number. */
  length: number;
  windowBytes: number;
  /** Declared decoded size, or null when the frame does not say. */
  contentBytes: number | null;
  checksum: boolean;
}

type State =
  /** Waiting for `need` header bytes of the given kind. */
  | { kind: 'magic' | 'skippable-size' | 'frame-header' | 'block-header'; need: number }
  /** Passing `left` bytes through unread (block contents, checksums, skippable frames). */
  | { kind: 'skip'; left: number; then: 'magic' | 'block-header' };

export class ZstdFrameGuard extends Transform {
  private state: State = { kind: 'magic', need: 4 };
  private header: Buffer = Buffer.alloc(0);
  private frame: FrameHeader | null = null;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.scan(chunk);
      callback(null, chunk);
    } catch (err) {
      callback(err as Error);
    }
  }

  private scan(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      const state = this.state;
      if (state.kind === 'skip') {
        const taken = Math.min(state.left, chunk.length - offset);
        offset += taken;
        state.left -= taken;
        if (state.left === 0) this.state = state.then === 'magic' ? { kind: 'magic', need: 4 } : { kind: 'block-header', need: 3 };
        continue;
      }
      const taken = Math.min(state.need - this.header.length, chunk.length - offset);
      this.header = Buffer.concat([this.header, chunk.subarray(offset, offset + taken)]);
      offset += taken;
      if (this.header.length < state.need) continue;
      const header = this.header;
      this.header = Buffer.alloc(0);
      this.state = this.next(state.kind, header);
    }
  }

  /** What follows a complete header of `kind`. */
  private next(kind: 'magic' | 'skippable-size' | 'frame-header' | 'block-header', header: Buffer): State {
    switch (kind) {
      case 'magic': {
        const magic = header.readUInt32LE(0);
        if (magic === ZSTD_MAGIC) return { kind: 'frame-header', need: 1 };
        if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) return { kind: 'skippable-size', need: 4 };
        throw new ZstdFrameError('not a zstd frame');
      }
      case 'skippable-size':
        return skipThen(header.readUInt32LE(0), 'magic');
      case 'frame-header': {
        const length = frameHeaderLength(header[0]);
        if (header.length < length) {
          this.header = header; // the descriptor byte, kept: the rest of the header follows it
          return { kind: 'frame-header', need: length };
        }
        this.frame = this.checkFrame(readFrameHeader(header));
        return { kind: 'block-header', need: 3 };
      }
      case 'block-header':
        return this.afterBlockHeader(header);
    }
  }

  private checkFrame(frame: FrameHeader): FrameHeader {
    if (frame.windowBytes > ZSTD_MAX_WINDOW_BYTES) throw new ZstdWindowTooLargeError(frame.windowBytes);
    // A frame that says it decodes to more than a page may be is too large; no need to decode it.
    if (frame.contentBytes !== null && frame.contentBytes > this.maxBytes) throw new BodyTooLargeError(this.maxBytes);
    return frame;
  }

  private afterBlockHeader(header: Buffer): State {
    const frame = this.frame!;
    const bits = header.readUIntLE(0, 3);
    const last = (bits & 1) === 1;
    const type = (bits >> 1) & 3;
    const size = bits >> 3;
    if (type === 3) throw new ZstdFrameError('reserved block type');
    if (size > Math.min(frame.windowBytes, MAX_BLOCK_BYTES)) throw new ZstdFrameError('block larger than allowed');
    // An RLE block is one byte repeated `size` times; the others carry `size` bytes.
    const content = type === 1 ? 1 : size;
    const trailer = last && frame.checksum ? 4 : 0;
    return skipThen(content + trailer, last ? 'magic' : 'block-header');
  }
}

function skipThen(left: number, then: 'magic' | 'block-header'): State {
  return left === 0 ? (then === 'magic' ? { kind: 'magic', need: 4 } : { kind: 'block-header', need: 3 }) : { kind: 'skip', left, then };
}

/** Frame header length (after the magic) from its first byte, the frame header descriptor. */
function frameHeaderLength(descriptor: number): number {
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3];
  const contentSizeBytes = [singleSegment, 2, 4, 8][descriptor >> 6];
  return 1 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes;
}

function readFrameHeader(header: Buffer): FrameHeader {
  const descriptor = header[0];
  if (descriptor & 0x08) throw new ZstdFrameError('reserved bit set in the frame header');
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3];
  const contentSizeBytes = [singleSegment, 2, 4, 8][descriptor >> 6];
  let offset = 1;
  let windowBytes = 0;
  if (!singleSegment) {
    const windowDescriptor = header[offset++];
    const base = 2 ** (10 + (windowDescriptor >> 3));
    windowBytes = base + (base / 8) * (windowDescriptor & 7);
  }
  offset += dictionaryBytes;
  let contentBytes: number | null = null;
  if (contentSizeBytes === 8) contentBytes = header.readUInt32LE(offset) + header.readUInt32LE(offset + 4) * 2 ** 32;
  else if (contentSizeBytes > 0) contentBytes = header.readUIntLE(offset, contentSizeBytes) + (contentSizeBytes === 2 ? 256 : 0);
  // A single-segment frame's window is its content: the decoder allocates that much.
  if (singleSegment) windowBytes = contentBytes ?? 0;
  return { length: header.length, windowBytes, contentBytes, checksum: ((descriptor >> 2) & 1) === 1 };
}
