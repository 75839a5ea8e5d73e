// An RFC 8259 JSON parser that keeps where things are: every value with the offset it starts at,
// every object key with its own, so that a JSON-LD node and each of its properties get a line in the
// page. JSON.parse gives neither. It accepts exactly what JSON.parse accepts, except nesting deeper
// than MAX_JSON_DEPTH ("nested too deep"), and says in plain words what is wrong and where: comments,
// trailing commas and single quotes, the usual faults of hand-written JSON-LD, are named as such.
// Recursive descent; the depth cap bounds the recursion, and each character is read once.
import { MAX_JSON_DEPTH } from './structured-types.ts';

export type JsonValue = JsonObject | JsonArray | JsonString | JsonNumber | JsonBoolean | JsonNull;

export interface JsonObject {
  kind: 'object';
  /** Offset of its `{`. */
  start: number;
  /** By key, in the order first written; a repeated key keeps its first place and takes the last value, as with JSON.parse. */
  entries: Map<string, JsonEntry>;
}

interface JsonEntry {
  key: string;
  /** Offset of the key's opening quote (of the last occurrence, whose value is kept). */
  keyStart: number;
  value: JsonValue;
}

interface JsonArray {
  kind: 'array';
  start: number;
  items: JsonValue[];
}

interface JsonString {
  kind: 'string';
  start: number;
  value: string;
}

interface JsonNumber {
  kind: 'number';
  start: number;
  value: number;
  /** As written: `29.90`, `1e3`. */
  written: string;
}

interface JsonBoolean {
  kind: 'boolean';
  start: number;
  value: boolean;
}

interface JsonNull {
  kind: 'null';
  start: number;
}

export type JsonReading = { ok: true; value: JsonValue } | { ok: false; message: string; offset: number };

/** Parses `text` (one JSON value, optionally surrounded by JSON whitespace); offsets are into `text`. */
export function readJson(text: string): JsonReading {
  const reader = new JsonReader(text);
  try {
    return { ok: true, value: reader.document() };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    throw error;
  }
}

/** The JSON value as plain data, as JSON.parse would give it (JSON-LD @context values are reported so). */
export function plainJson(value: JsonValue): unknown {
  switch (value.kind) {
    case 'object': {
      const plain: Record<string, unknown> = {};
      for (const [key, entry] of value.entries) {
        Object.defineProperty(plain, key, { value: plainJson(entry.value), enumerable: true, writable: true, configurable: true });
      }
      return plain;
    }
    case 'array':
      return value.items.map(plainJson);
    case 'null':
      return null;
    default:
      return value.value;
  }
}

/** Thrown inside the reader and caught by readJson; no Error, so no stack trace is captured for every bad block. */
class JsonSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class JsonReader {
  private at = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  document(): JsonValue {
    this.skipWhitespace();
    if (this.at >= this.text.length) throw new JsonSyntaxError('the block is empty', 0);
    const value = this.value();
    this.skipWhitespace();
    if (this.at < this.text.length) throw this.unexpected('unexpected text after the JSON value');
    return value;
  }

  private value(): JsonValue {
    const c = this.text.charCodeAt(this.at);
    switch (c) {
      case 0x7b: // {
        return this.object();
      case 0x5b: // [
        return this.array();
      case QUOTE:
        return { kind: 'string', start: this.at, value: this.string() };
      case 0x74: // t
        return { kind: 'boolean', start: this.literal('true'), value: true };
      case 0x66: // f
        return { kind: 'boolean', start: this.literal('false'), value: false };
      case 0x6e: // n
        return { kind: 'null', start: this.literal('null') };
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        throw this.unexpected('expected a JSON value');
    }
  }

  private object(): JsonObject {
    const start = this.at;
    this.enter();
    this.at++;
    const entries = new Map<string, JsonEntry>();
    this.skipWhitespace();
    if (this.peek() === 0x7d) {
      this.at++;
      this.depth--;
      return { kind: 'object', start, entries };
    }
    for (;;) {
      this.skipWhitespace();
      if (this.peek() !== QUOTE) {
        if (this.peek() === 0x7d && entries.size > 0) throw new JsonSyntaxError("trailing comma before '}'", this.at);
        throw this.unexpected('expected a property name in double quotes');
      }
      const keyStart = this.at;
      const key = this.string();
      this.skipWhitespace();
      if (this.peek() !== 0x3a) throw this.unexpected("expected ':' after a property name");
      this.at++;
      this.skipWhitespace();
      const entry = { key, keyStart, value: this.value() };
      const earlier = entries.get(key);
      if (earlier === undefined) entries.set(key, entry);
      else {
        earlier.keyStart = keyStart;
        earlier.value = entry.value;
      }
      this.skipWhitespace();
      const next = this.peek();
      this.at++;
      if (next === 0x2c) continue;
      if (next === 0x7d) break;
      this.at--;
      throw this.unexpected("expected ',' or '}' after a property value");
    }
    this.depth--;
    return { kind: 'object', start, entries };
  }

  private array(): JsonArray {
    const start = this.at;
    this.enter();
    this.at++;
    const items: JsonValue[] = [];
    this.skipWhitespace();
    if (this.peek() === 0x5d) {
      this.at++;
      this.depth--;
      return { kind: 'array', start, items };
    }
    for (;;) {
      this.skipWhitespace();
      if (this.peek() === 0x5d && items.length > 0) throw new JsonSyntaxError("trailing comma before ']'", this.at);
      items.push(this.value());
      this.skipWhitespace();
      const next = this.peek();
      this.at++;
      if (next === 0x2c) continue;
      if (next === 0x5d) break;
      this.at--;
      throw this.unexpected("expected ',' or ']' after an array element");
    }
    this.depth--;
    return { kind: 'array', start, items };
  }

  private enter(): void {
    if (++this.depth > MAX_JSON_DEPTH) throw new JsonSyntaxError(`nested too deep (more than ${MAX_JSON_DEPTH} levels)`, this.at);
  }

  /** A string starting at its opening quote; leaves `at` past the closing one. */
  private string(): string {
    const text = this.text;
    const start = this.at;
    let i = start + 1;
    let value = '';
    let runStart = i;
    for (;;) {
      if (i >= text.length) throw new JsonSyntaxError('unterminated string', start);
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c < 0x20) throw new JsonSyntaxError('control character in a string (line breaks and tabs must be escaped)', i);
      if (c !== BACKSLASH) {
        i++;
        continue;
      }
      value += text.slice(runStart, i);
      const escape = text.charCodeAt(i + 1);
      switch (escape) {
        case QUOTE:
        case BACKSLASH:
        case 0x2f: // /
          value += String.fromCharCode(escape);
          break;
        case 0x62:
          value += '\b';
          break;
        case 0x66:
          value += '\f';
          break;
        case 0x6e:
          value += '\n';
          break;
        case 0x72:
          value += '\r';
          break;
        case 0x74:
          value += '\t';
          break;
        case 0x75: {
          // u + 4 hex digits
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError('invalid \\u escape in a string', i);
          value += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          break;
        }
        default:
          if (Number.isNaN(escape)) throw new JsonSyntaxError('unterminated string', start);
          throw new JsonSyntaxError(`invalid escape '\\${text[i + 1]}' in a string`, i);
      }
      i += 2;
      runStart = i;
    }
    this.at = i + 1;
    return runStart === start + 1 ? text.slice(runStart, i) : value + text.slice(runStart, i);
  }

  private number(): JsonNumber {
    const text = this.text;
    const start = this.at;
    let i = start;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else throw new JsonSyntaxError('invalid number', start);
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(text.charCodeAt(i))) throw new JsonSyntaxError('invalid number (a digit must follow the decimal point)', start);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) throw new JsonSyntaxError('invalid number (a digit must follow the exponent)', start);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    // `01`, `1.2.3`: JSON.parse rejects what follows a number, and so does the caller
    const written = text.slice(start, i);
    this.at = i;
    return { kind: 'number', start, value: Number(written), written };
  }

  /** `true`, `false` or `null`; returns where it starts. */
  private literal(word: string): number {
    const start = this.at;
    if (!this.text.startsWith(word, start)) throw this.unexpected('expected a JSON value');
    this.at += word.length;
    return start;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let i = this.at;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.at = i;
  }

  private peek(): number {
    return this.text.charCodeAt(this.at);
  }

  /** The error for the character at `at`, named for the usual mistakes. */
  private unexpected(expected: string): JsonSyntaxError {
    const at = this.at;
    const text = this.text;
    if (at >= text.length) return new JsonSyntaxError('the JSON ends too soon', at);
    const c = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    if (c === 0x2f && (next === 0x2f || next === 0x2a)) return new JsonSyntaxError('comments are not allowed in JSON', at);
    if (c === 0x27) return new JsonSyntaxError('strings and property names must be in double quotes, not single quotes', at);
    return new JsonSyntaxError(`${expected}, found ${describe(text, at)}`, at);
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function describe(text: string, at: number): string {
  const c = text.codePointAt(at) as number;
  if (c < 0x20 || c === 0x7f) return `the control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  if (c === 0xa0 || c === 0xfeff || (c >= 0x2000 && c <= 0x200b) || c === 0x3000) {
    return `the non-JSON space U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `'${String.fromCodePoint(c)}'`;
}
