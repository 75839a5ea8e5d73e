// The protocol and hostname an href resolves to, read off the href without parsing it as a URL when
// that is safe. Most link checks need only these two parts of each <a href>: is it a web link, is it
// internal. Parsing every href of a large page (thousands, most of them `/relative/paths` and plain
// `https://host/...` URLs) made URL objects the costliest part of the checks. Anything out of the
// ordinary (ports, user info, IP addresses, IDNA, backslashes, tabs or newlines where they matter)
// is left to the real parser: `read` then returns false.
//
// What is read agrees with `new URL(raw.trim(), base)` (the memoised resolveUrl in url.ts): a
// reference without a scheme (`/a`, `a`, `?q`, `#f`, `..`) keeps the base's protocol and hostname and
// cannot fail against an http(s) base; `http(s)://host/...` has that host, lower-cased; a non-special
// scheme without `/` after the colon (`mailto:`, `tel:`, `javascript:`) has an opaque path and an
// empty hostname. `readParts` goes on, for http(s) hrefs whose path and query hold only characters
// the parser keeps as written (checked against Node's parser) and no dot segments, to the pathname,
// search and href without fragment that a few checks need.
import { isJsWhitespace } from './whitespace.ts';

const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Tab, line feed and carriage return: the URL parser deletes them anywhere, which can join characters. */
function isDeletedByUrlParser(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d;
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isSchemeChar(c: number): boolean {
  return isAsciiAlpha(c) || isAsciiDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e; // + - .
}

/** Characters of the plain host names read here: ASCII letters, digits, "-" and ".". */
function isHostChar(c: number): boolean {
  return isAsciiAlpha(c) || isAsciiDigit(c) || c === 0x2d || c === 0x2e;
}

/** Schemes with their own parsing rules (hosts, backslashes); only http and https are read here. */
const SPECIAL_SCHEMES = new Set(['ftp', 'file', 'http', 'https', 'ws', 'wss']);

/** Longest host name read here (DNS: 253 characters, 63 per label); longer ones go to the parser. */
const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

/** Host names remembered per reader. */
const RECENT_HOSTS = 4;

/** The shapes of href `read` tells apart. */
const enum Form {
  /** Empty: the base URL itself. */
  Empty,
  /** `path` relative to the base's directory. */
  Path,
  /** `/path` from the base's root. */
  Root,
  /** `?query` or `#fragment` on the base. */
  QueryOrFragment,
  /** `http(s)://host...` or `//host...`: `rest` is where the host ends. */
  Authority,
  /** `mailto:...` and other schemes without a host. */
  Opaque,
}

/** ASCII characters the parser keeps as written in an http(s) path (checked against Node's URL). */
const PATH_KEPT = asciiSet("!$%&'()*+,-./0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_abcdefghijklmnopqrstuvwxyz|~");
/** ... and in a query, where `'` is escaped and "`", "{", "}" are not. */
const QUERY_KEPT = asciiSet("!$%&()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~");

function asciiSet(characters: string): boolean[] {
  const set = new Array<boolean>(0x80).fill(false);
  for (let i = 0; i < characters.length; i++) set[characters.charCodeAt(i)] = true;
  return set;
}

/** `raw.slice(start, end)` is "." or "..", a segment the parser removes. */
function isDotSegment(raw: string, start: number, end: number): boolean {
  const length = end - start;
  return (length === 1 || length === 2) && raw.charCodeAt(start) === 0x2e && raw.charCodeAt(end - 1) === 0x2e;
}

/** `%2e` or `%2E` at `at`: an escaped "." that may make a dot segment. */
function isEncodedDot(raw: string, at: number, end: number): boolean {
  return at + 2 < end && raw.charCodeAt(at + 1) === 0x32 && (raw.charCodeAt(at + 2) | 0x20) === 0x65;
}

/**
 * Reads hrefs against one base URL. After `read(raw)` returns true, `protocol` and `hostname` are
 * those of `new URL(raw.trim(), base)`, which parses. The strings are shared: the base's own for
 * relative references.
 */
export class QuickUrlReader {
  protocol = '';
  hostname = '';
  /** Where the parts of the href last read by `readParts` end (see the getters below). */
  private raw = '';
  private pathEnd = 0;
  private queryEnd = 0;
  private emptyFragment = false;
  /** Plain DNS names read lately ('' for none yet), so a repeated host is neither copied nor checked again. */
  private readonly recentHosts: string[] = new Array<string>(RECENT_HOSTS).fill('');
  private nextRecent = 0;
  private readonly baseProtocol: string;
  private readonly baseHostname: string;
  /** What the last href read looks like, and where its path (or the rest after the host) starts and it ends. */
  private form = Form.Empty;
  private rest = 0;
  private end = 0;
  /** The base's href up to its path (`https://user@host:8080`), and the path of its directory (`/dir/`). */
  private baseOrigin: string | null = null;
  private baseDirectory = '';

  /** `base`: an http: or https: URL (see `forBase`). */
  private constructor(private readonly base: URL) {
    this.baseProtocol = base.protocol;
    this.baseHostname = base.hostname;
  }

  /** A reader for `baseUrl`, or null when it is not an http(s) URL (every href then needs the parser). */
  static forBase(baseUrl: string): QuickUrlReader | null {
    if (!URL.canParse(baseUrl)) return null;
    const base = new URL(baseUrl);
    return base.protocol === 'http:' || base.protocol === 'https:' ? new QuickUrlReader(base) : null;
  }

  /** Reads `raw` (an attribute value as written); false when only the URL parser can tell. */
  read(raw: string): boolean {
    let start = 0;
    let end = raw.length;
    while (start < end && isJsWhitespace(raw.charCodeAt(start))) start++;
    while (end > start && isJsWhitespace(raw.charCodeAt(end - 1))) end--;
    this.rest = start;
    this.end = end;
    if (start === end) return this.relative(Form.Empty); // the base itself

    const first = raw.charCodeAt(start);
    // The parser strips leading C0 controls and spaces; JavaScript's trim leaves some of them.
    if (first <= 0x20) return false;
    if (first === SLASH || first === BACKSLASH) {
      const second = start + 1 < end ? raw.charCodeAt(start + 1) : -1;
      if (second === SLASH && first === SLASH) return this.authority(raw, start + 2, end, this.baseProtocol);
      // `\\`, `/\` and `\/` also start an authority in http(s) URLs; tabs and newlines are deleted
      if (second === SLASH || second === BACKSLASH || isDeletedByUrlParser(second)) return false;
      return this.relative(Form.Root); // a path from the root
    }
    if (first === 0x23 || first === 0x3f) return this.relative(Form.QueryOrFragment); // `#f`, `?q`
    if (!isAsciiAlpha(first)) return this.relative(Form.Path); // `./a`, `1a`, ...

    let i = start + 1;
    while (i < end && isSchemeChar(raw.charCodeAt(i))) i++;
    if (i === end) return this.relative(Form.Path);
    const stop = raw.charCodeAt(i);
    if (isDeletedByUrlParser(stop)) return false; // `java\nscript:` is `javascript:`
    if (stop !== COLON) return this.relative(Form.Path);

    const afterColon = i + 1 < end ? raw.charCodeAt(i + 1) : -1;
    const web = webScheme(raw, start, i);
    if (web !== null) {
      if (afterColon !== SLASH || i + 2 >= end || raw.charCodeAt(i + 2) !== SLASH) return false;
      return this.authority(raw, i + 3, end, web);
    }
    const scheme = raw.slice(start, i).toLowerCase();
    if (SPECIAL_SCHEMES.has(scheme)) return false;
    // `scheme:/...` may hold an authority; otherwise the rest is an opaque path, which always parses
    if (afterColon === SLASH || afterColon === BACKSLASH || isDeletedByUrlParser(afterColon)) return false;
    this.protocol = `${scheme}:`;
    this.hostname = '';
    this.form = Form.Opaque;
    return true;
  }

  /**
   * `read`, and for an http(s) href whose path and query the parser keeps as written, the rest of
   * what the link checks use: `pathname`, `search`, and the href without its fragment, both as
   * `hrefWithoutFragment` (up to the first "#") and as url.ts `withoutHash` (`hrefWithoutHash`, which
   * keeps the "#" of an empty fragment). These are worked out when asked for, from where the parts of
   * the href lie. False when only the URL parser can tell.
   */
  readParts(raw: string): boolean {
    if (!this.read(raw) || (this.protocol !== 'https:' && this.protocol !== 'http:')) return false;
    if (this.baseOrigin === null) {
      this.baseOrigin = new URL('/', this.base).href.slice(0, -1);
      this.baseDirectory = new URL('./', this.base).pathname;
    }
    const form = this.form;
    if (form !== Form.Authority && form !== Form.Root && form !== Form.Path) return false; // the base itself, `?q`, `#f`: rare
    const end = this.end;
    // the path: characters the parser keeps as written, and no "." or ".." segment to remove
    let i = this.rest;
    let segment = i;
    for (; i < end; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x3f || c === 0x23) break; // ? #
      if (c === SLASH) {
        if (isDotSegment(raw, segment, i)) return false;
        segment = i + 1;
      } else if (c >= 0x80 || !PATH_KEPT[c] || (c === 0x25 && isEncodedDot(raw, i, end))) {
        return false;
      }
    }
    if (isDotSegment(raw, segment, i)) return false;
    const pathEnd = i;
    if (i < end && raw.charCodeAt(i) === 0x3f) {
      for (i++; i < end && raw.charCodeAt(i) !== 0x23; i++) {
        const c = raw.charCodeAt(i);
        if (c >= 0x80 || !QUERY_KEPT[c]) return false;
      }
    }
    // i is at the "#" of the fragment, if any; the parser strips trailing C0 controls, which could empty it
    if (i < end && end - i > 1 && raw.charCodeAt(end - 1) <= 0x20) return false;
    this.raw = raw;
    this.pathEnd = pathEnd;
    this.queryEnd = i;
    this.emptyFragment = end - i === 1;
    return true;
  }

  /** The pathname of the href last read by `readParts`. */
  get pathname(): string {
    const written = this.raw.slice(this.rest, this.pathEnd);
    switch (this.form) {
      case Form.Path:
        return this.baseDirectory + written;
      case Form.Authority:
        return written === '' ? '/' : written;
      default:
        return written;
    }
  }

  /** The search (query with its "?", or '' when empty) of the href last read by `readParts`. */
  get search(): string {
    return this.queryEnd - this.pathEnd > 1 ? this.raw.slice(this.pathEnd, this.queryEnd) : '';
  }

  /** The href up to the fragment of the href last read by `readParts`. */
  get hrefWithoutFragment(): string {
    const raw = this.raw;
    if (this.form === Form.Authority && raw.charCodeAt(this.rest) === SLASH && this.writtenAsSerialised()) {
      // `https://host/path?query` written in lower case: the href is the text as written
      return raw.slice(this.rest - (this.protocol.length + 2 + this.hostname.length), this.queryEnd);
    }
    const origin = this.form === Form.Authority ? `${this.protocol}//${this.hostname}` : (this.baseOrigin as string);
    return origin + this.pathname + raw.slice(this.pathEnd, this.queryEnd);
  }

  /** url.ts `withoutHash` of the href last read by `readParts`. */
  get hrefWithoutHash(): string {
    return this.emptyFragment ? `${this.hrefWithoutFragment}#` : this.hrefWithoutFragment;
  }

  /** The href last read starts with its scheme and host exactly as the parser writes them. */
  private writtenAsSerialised(): boolean {
    const length = this.protocol.length + 2 + this.hostname.length;
    const start = this.rest - length;
    if (start < 0) return false;
    const raw = this.raw;
    // `//host` (no scheme) is as long as `https://host` only when preceded by other text: compare it all
    for (let k = 0; k < this.protocol.length; k++) if (raw.charCodeAt(start + k) !== this.protocol.charCodeAt(k)) return false;
    if (raw.charCodeAt(start + this.protocol.length) !== SLASH || raw.charCodeAt(start + this.protocol.length + 1) !== SLASH) return false;
    const hostStart = start + this.protocol.length + 2;
    for (let k = 0; k < this.hostname.length; k++) if (raw.charCodeAt(hostStart + k) !== this.hostname.charCodeAt(k)) return false;
    return true;
  }

  private relative(form: Form): boolean {
    this.protocol = this.baseProtocol;
    this.hostname = this.baseHostname;
    this.form = form;
    return true;
  }

  /** `raw` from `hostStart` is `host[/?#...]` of an http(s) URL: reads a plain DNS name, else false. */
  private authority(raw: string, hostStart: number, end: number, protocol: string): boolean {
    let i = hostStart;
    while (i < end && isHostChar(raw.charCodeAt(i))) i++;
    if (i < end) {
      const stop = raw.charCodeAt(i);
      // a port, user info, backslash, percent-escape, non-ASCII or deleted character: leave it to the parser
      if (stop !== SLASH && stop !== 0x3f && stop !== 0x23) return false; // / ? #
    }
    if (i === hostStart) return false; // no host: `https:///x` and the like
    let host = this.recentHost(raw, hostStart, i);
    if (host === null) {
      host = raw.slice(hostStart, i).toLowerCase();
      if (!isPlainDnsName(host)) return false;
      this.recentHosts[this.nextRecent] = host;
      this.nextRecent = (this.nextRecent + 1) % RECENT_HOSTS;
    }
    this.protocol = protocol;
    this.hostname = host;
    this.form = Form.Authority;
    this.rest = i;
    return true;
  }

  /** A host name read before that `raw.slice(start, end)` spells in any case (the links of a page share a few hosts). */
  private recentHost(raw: string, start: number, end: number): string | null {
    for (const host of this.recentHosts) {
      if (host.length !== end - start) continue;
      let i = 0;
      while (i < host.length && (raw.charCodeAt(start + i) | 0x20) === host.charCodeAt(i)) i++;
      if (i === host.length) return host;
    }
    return null;
  }
}

/** 'http:' or 'https:' when `raw.slice(start, end)` is that scheme in any case, else null. */
function webScheme(raw: string, start: number, end: number): 'http:' | 'https:' | null {
  const length = end - start;
  if (length !== 4 && length !== 5) return null;
  if ((raw.charCodeAt(start) | 0x20) !== 0x68 || (raw.charCodeAt(start + 1) | 0x20) !== 0x74) return null; // h t
  if ((raw.charCodeAt(start + 2) | 0x20) !== 0x74 || (raw.charCodeAt(start + 3) | 0x20) !== 0x70) return null; // t p
  if (length === 4) return 'http:';
  return (raw.charCodeAt(start + 4) | 0x20) === 0x73 ? 'https:' : null; // s
}

/**
 * A lower-case host name of letters, digits and hyphens that the URL parser keeps as it is: no empty
 * label (nor a trailing dot), no label beginning or ending with "-", no IDNA (`xn--`) label, and a last
 * label that does not begin with a digit (which would make the parser try it as an IPv4 address).
 */
function isPlainDnsName(host: string): boolean {
  if (host.length === 0 || host.length > MAX_HOST_LENGTH) return false;
  let labelStart = 0;
  for (;;) {
    let labelEnd = host.indexOf('.', labelStart);
    if (labelEnd === -1) labelEnd = host.length;
    const length = labelEnd - labelStart;
    if (length === 0 || length > MAX_LABEL_LENGTH) return false;
    if (host.charCodeAt(labelStart) === 0x2d || host.charCodeAt(labelEnd - 1) === 0x2d) return false;
    if (host.startsWith('xn--', labelStart)) return false;
    if (labelEnd === host.length) return !isAsciiDigit(host.charCodeAt(labelStart));
    labelStart = labelEnd + 1;
  }
}
