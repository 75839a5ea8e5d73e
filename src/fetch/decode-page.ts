// A fetched page's body made text, with the charset fetching settled on. Apart from fetching so that the
// analysis threads do it: the main thread hands a thread the page's bytes (copied outside V8's heap)
// instead of decoding them into a string on the event loop (8% of the main thread's time under the
// create benchmark, and milliseconds for a multi-megabyte page) and copying that string into the
// thread's message. Measured on the create benchmark: the server's peak RSS 524-552 -> 446-494 MB (no
// page text on the main heap); reports per second unchanged within its noise (the work moved to the
// analysis thread: main thread 2.78 -> 2.60 s, analysis thread 3.64 -> 3.80 s per 5 s).
import { decodeTextInPieces } from './charset.ts';
import { PageText } from './page-text.ts';
import type { FetchedPage, UndecodedPage } from './types.ts';

/** Bytes decoded into one piece: at most this many characters, so at most 96 KiB as a two-byte string. */
const PIECE_BYTES = 48 * 1024;

/** A body decoded with a WHATWG encoding name, in pieces of under V8's 128 KiB large-string size. */
export function decodeBody(bytes: Buffer, charset: string): PageText {
  return new PageText(decodeTextInPieces(bytes, charset, PIECE_BYTES));
}

export function decodePage({ body, ...page }: UndecodedPage): FetchedPage {
  // Bytes that crossed to a thread arrive as a plain Uint8Array: viewed as a Buffer, not copied.
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return { ...page, html: decodeBody(bytes, page.charset) };
}
