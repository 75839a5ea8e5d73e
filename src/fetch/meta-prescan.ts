// The HTML standard's "prescan a byte stream to determine its encoding"
// (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding):
// what a browser reads from <meta charset> / <meta http-equiv=Content-Type> before parsing. It skips
// comments and other tags' attributes exactly as a browser does, so a "charset" inside a comment or
// another attribute does not count.
import { encodingForLabel } from './encoding-labels.ts';

/** Browsers prescan the first 1024 bytes; a declaration after that is not honoured. */
const PRESCAN_BYTES = 1024;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

/** Running out of bytes mid-construct aborts the prescan (no result), as the standard says. */
const ABORT = Symbol('abort');

interface Attribute {
  name: string;
  value: string;
}

/** The encoding declared in the first 1024 bytes, or null when there is none (or it is unknown). */
export function prescanForEncoding(bytes: Uint8Array): string | null {
  const result = new Prescan(bytes.subarray(0, PRESCAN_BYTES)).run();
  return result === ABORT ? null : result;
}

class Prescan {
  private pos = 0;

  constructor(private readonly bytes: Uint8Array) {}

  run(): string | null | typeof ABORT {
    const b = this.bytes;
    while (this.pos < b.length) {
      if (this.at('<!--')) {
        // The closing "-->" may share the dashes of "<!--" ("<!-->" is a whole comment).
        const end = this.indexOf('-->', this.pos + 2);
        if (end === -1) return ABORT;
        this.pos = end + 3;
      } else if (this.atCaseInsensitive('<meta') && isSpaceOrSlash(b[this.pos + 5])) {
        this.pos += 5;
        const encoding = this.meta();
        if (encoding !== null) return encoding;
        this.pos++;
      } else if (b[this.pos] === LT && (isAsciiAlpha(b[this.pos + 1]) || (b[this.pos + 1] === SLASH && isAsciiAlpha(b[this.pos + 2])))) {
        while (this.pos < b.length && !isSpace(b[this.pos]) && b[this.pos] !== GT) this.pos++;
        for (;;) {
          const attribute = this.attribute();
          if (attribute === ABORT) return ABORT;
          if (attribute === null) break;
        }
        this.pos++;
      } else if (this.at('<!') || this.at('</') || this.at('<?')) {
        const end = b.indexOf(GT, this.pos + 1);
        if (end === -1) return ABORT;
        this.pos = end + 1;
      } else {
        this.pos++;
      }
    }
    return null;
  }

  /** The attributes of a <meta>; returns the encoding it declares, null if none (or ABORT). */
  private meta(): string | null | typeof ABORT {
    const seen = new Set<string>();
    let gotPragma = false;
    let needPragma: boolean | null = null;
    // undefined: no charset seen yet; null: a charset attribute with an unknown label.
    let charset: string | null | undefined;
    for (;;) {
      const attribute = this.attribute();
      if (attribute === ABORT) return ABORT;
      if (attribute === null) break;
      const { name, value } = attribute;
      if (seen.has(name)) continue;
      seen.add(name);
      if (name === 'http-equiv') {
        if (value === 'content-type') gotPragma = true;
      } else if (name === 'content') {
        const declared = charset === undefined ? encodingFromMetaContent(value) : null;
        if (declared !== null) {
          charset = declared;
          needPragma = true;
        }
      } else if (name === 'charset') {
        charset = encodingForLabel(value);
        needPragma = false;
      }
    }
    if (needPragma === null || (needPragma && !gotPragma) || !charset) return null;
    if (charset === 'utf-16be' || charset === 'utf-16le') return 'utf-8';
    if (charset === 'x-user-defined') return 'windows-1252';
    return charset;
  }

  /** "Get an attribute": null when the tag ends here (position left on ">"). */
  private attribute(): Attribute | null | typeof ABORT {
    const b = this.bytes;
    while (this.pos < b.length && isSpaceOrSlash(b[this.pos])) this.pos++;
    if (this.pos >= b.length) return ABORT;
    if (b[this.pos] === GT) return null;
    let name = '';
    for (;;) {
      if (this.pos >= b.length) return ABORT;
      const byte = b[this.pos];
      if (byte === EQUALS && name !== '') {
        this.pos++;
        return this.attributeValue(name);
      }
      if (isSpace(byte)) break;
      if (byte === SLASH || byte === GT) return { name, value: '' };
      name += lowerChar(byte);
      this.pos++;
    }
    while (this.pos < b.length && isSpace(b[this.pos])) this.pos++;
    if (this.pos >= b.length) return ABORT;
    if (b[this.pos] !== EQUALS) return { name, value: '' };
    this.pos++;
    return this.attributeValue(name);
  }

  private attributeValue(name: string): Attribute | typeof ABORT {
    const b = this.bytes;
    while (this.pos < b.length && isSpace(b[this.pos])) this.pos++;
    if (this.pos >= b.length) return ABORT;
    const first = b[this.pos];
    let value = '';
    if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE) {
      for (;;) {
        this.pos++;
        if (this.pos >= b.length) return ABORT;
        if (b[this.pos] === first) {
          this.pos++;
          return { name, value };
        }
        value += lowerChar(b[this.pos]);
      }
    }
    if (first === GT) return { name, value };
    for (;;) {
      if (this.pos >= b.length) return ABORT;
      const byte = b[this.pos];
      if (isSpace(byte) || byte === GT) return { name, value };
      value += lowerChar(byte);
      this.pos++;
    }
  }

  private at(ascii: string): boolean {
    for (let i = 0; i < ascii.length; i++) if (this.bytes[this.pos + i] !== ascii.charCodeAt(i)) return false;
    return true;
  }

  private atCaseInsensitive(ascii: string): boolean {
    for (let i = 0; i < ascii.length; i++) {
      const byte = this.bytes[this.pos + i];
      if (byte === undefined || lowerChar(byte) !== ascii[i]) return false;
    }
    return true;
  }

  private indexOf(ascii: string, from: number): number {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length).indexOf(ascii, from, 'latin1');
  }
}

/**
 * "Extracting a character encoding from a meta element": the charset=... inside
 * content="text/html; charset=...". null when there is none or the label is unknown.
 */
export function encodingFromMetaContent(content: string): string | null {
  const lower = content.toLowerCase();
  let from = 0;
  for (;;) {
    const found = lower.indexOf('charset', from);
    if (found === -1) return null;
    let pos = found + 'charset'.length;
    while (pos < content.length && isSpace(content.charCodeAt(pos))) pos++;
    if (content[pos] !== '=') {
      from = pos;
      continue;
    }
    pos++;
    while (pos < content.length && isSpace(content.charCodeAt(pos))) pos++;
    if (pos >= content.length) return null;
    const quote = content[pos];
    if (quote === '"' || quote === "'") {
      const end = content.indexOf(quote, pos + 1);
      return end === -1 ? null : encodingForLabel(content.slice(pos + 1, end));
    }
    let end = pos;
    while (end < content.length && !isSpace(content.charCodeAt(end)) && content[end] !== ';') end++;
    return encodingForLabel(content.slice(pos, end));
  }
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20;
}

function isSpaceOrSlash(byte: number | undefined): boolean {
  return isSpace(byte) || byte === SLASH;
}

function isAsciiAlpha(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));
}

/** ASCII upper-case letters lowered; every other byte kept as the Latin-1 character it is. */
function lowerChar(byte: number): string {
  return String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);
}
