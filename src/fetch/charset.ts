// Choosing and applying the body's character encoding the way browsers do (HTML standard,
// "determining the character encoding"): a byte order mark wins, then the Content-Type charset,
// then a <meta> in the first 1024 bytes, then a guess.
import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import iconv from 'iconv-lite';
import type { CharsetSource } from './types.ts';
import { encodingForLabel } from './encoding-labels.ts';
import { prescanForEncoding } from './meta-prescan.ts';

export interface CharsetDecision {
  /** WHATWG encoding name. */
  charset: string;
  source: CharsetSource;
  /** The prescan found a declaration, whether or not it was the one used. */
  metaCharsetInFirst1024Bytes: boolean;
}

export function sniffCharset(bytes: Buffer, headerCharsetLabel: string | null): CharsetDecision {
  const meta = prescanForEncoding(bytes);
  const metaCharsetInFirst1024Bytes = meta !== null;
  const bom = bomEncoding(bytes);
  if (bom) return { charset: bom, source: 'bom', metaCharsetInFirst1024Bytes };
  const header = headerCharsetLabel === null ? null : encodingForLabel(headerCharsetLabel);
  if (header) return { charset: header, source: 'header', metaCharsetInFirst1024Bytes };
  if (meta) return { charset: meta, source: 'meta', metaCharsetInFirst1024Bytes };
  // Nothing declared: valid UTF-8 is almost certainly UTF-8; otherwise the legacy web default.
  return { charset: isUtf8(bytes) ? 'utf-8' : 'windows-1252', source: 'default', metaCharsetInFirst1024Bytes };
}

/** The encoding of a text resource that is not HTML (robots.txt, sitemaps): BOM, header, else UTF-8. */
export function plainTextEncoding(bytes: Buffer, headerCharsetLabel: string | null): string {
  return bomEncoding(bytes) ?? (headerCharsetLabel === null ? null : encodingForLabel(headerCharsetLabel)) ?? 'utf-8';
}

export function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/** iconv-lite's names where they differ from WHATWG's (or where a superset decodes better). */
const ICONV_NAME: Record<string, string> = {
  gbk: 'gb18030', // WHATWG decodes GBK with the gb18030 decoder
  big5: 'big5hkscs', // WHATWG Big5 includes the HKSCS extensions
  'x-mac-cyrillic': 'maccyrillic',
  'iso-8859-8-i': 'iso-8859-8', // same bytes, only the display direction differs
};

/** Decodes `bytes` with a WHATWG encoding name; a leading BOM is not part of the text. */
export function decodeText(bytes: Buffer, encoding: string): string {
  return decodeTextInPieces(bytes, encoding, bytes.length).join('');
}

/**
 * decodeText's text as strings of at most `pieceBytes` characters each, none empty: `bytes` decoded
 * `pieceBytes` at a time, a character split between two of them decoded whole (see PageText for why).
 * x-user-defined (rare) comes in one piece.
 */
export function decodeTextInPieces(bytes: Buffer, encoding: string, pieceBytes: number): string[] {
  // The standard's answer to encodings that enable script injection (ISO-2022-KR, HZ, ...).
  if (encoding === 'replacement') return bytes.length === 0 ? [] : ['\uFFFD'];
  if (encoding === 'x-user-defined') return bytes.length === 0 ? [] : [decodeUserDefined(bytes)];
  const decoder = streamDecoder(encoding);
  const pieces: string[] = [];
  const start = encoding === 'utf-8' && bomEncoding(bytes) === 'utf-8' ? 3 : 0;
  for (let at = start; at < bytes.length; at += pieceBytes) pieces.push(decoder.write(bytes.subarray(at, at + pieceBytes)));
  pieces.push(decoder.end());
  return pieces.filter((piece) => piece !== '');
}

interface StreamDecoder {
  write(bytes: Buffer): string;
  end(): string;
}

/** A decoder that keeps a character split between two writes. */
function streamDecoder(encoding: string): StreamDecoder {
  if (encoding === 'utf-8') {
    const decoder = new StringDecoder('utf8');
    return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() };
  }
  const iconvName = ICONV_NAME[encoding] ?? encoding;
  if (iconv.encodingExists(iconvName)) {
    const decoder = iconv.getDecoder(iconvName);
    return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() ?? '' };
  }
  // iso-2022-jp: iconv-lite lacks it, Node's ICU has it
  const decoder = new TextDecoder(encoding);
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
}

function decodeUserDefined(bytes: Buffer): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte < 0x80 ? byte : 0xf780 + byte - 0x80);
  return text;
}
