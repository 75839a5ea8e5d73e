// A crawl's request headers as the API takes them (docs/crawls.md, "Scope and request headers"):
// `Name: value` lines or an object of names to values, at most 10, each sent to the crawled host in
// place of the crawler's own value. The names are shown; the values never are, so no message here
// quotes one (a 422 echoes what it refuses).

export type HeadersInput = string | readonly string[] | Readonly<Record<string, unknown>> | undefined;

export type ParsedHeaders =
  /** `names` as given, in order; `headers` the same names to their values */
  | { ok: true; names: string[]; headers: Record<string, string> }
  | { ok: false; message: string };

const MAX_HEADERS = 10;
const MAX_HEADER_VALUE_LENGTH = 4096;
/** RFC 9110 sets no bound; a name longer than this is no header a site reads. */
const MAX_HEADER_NAME_LENGTH = 256;

/** RFC 9110 `token`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a field value may not hold: CR, LF, NUL, the other controls but tab, and what Latin-1 cannot write. */
const FORBIDDEN_IN_VALUE = /[\0-\x08\x0a-\x1f\x7f]|[^\0-\xff]/;
const CR_LF_NUL = /[\r\n\0]/;

/** Why a name may not be given, by its lower-case form. */
const REFUSED: Record<string, string> = {
  host: 'it is the connection\'s own',
  'content-length': 'it frames the message',
  'transfer-encoding': 'it frames the message',
  connection: 'it is hop-by-hop',
  'keep-alive': 'it is hop-by-hop',
  'proxy-connection': 'it is hop-by-hop',
  te: 'it is hop-by-hop',
  trailer: 'it is hop-by-hop',
  upgrade: 'it is hop-by-hop',
  expect: 'it is hop-by-hop',
  'user-agent': 'choose it with user_agent',
  'accept-encoding': 'the crawler negotiates compression itself',
};

const refuse = (message: string): ParsedHeaders => ({ ok: false, message });

export function parseCrawlHeaders(input: HeadersInput): ParsedHeaders {
  const entries = typeof input === 'object' && !Array.isArray(input) && input !== null ? objectEntries(input as Record<string, unknown>) : lineEntries(input as string | readonly string[] | undefined);
  if (!Array.isArray(entries)) return entries;
  if (entries.length > MAX_HEADERS) return refuse(`The headers may have at most ${MAX_HEADERS} headers; ${entries.length} were given.`);
  const names: string[] = [];
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (name === '') return refuse('Each of the headers needs a name before its colon.');
    if (name.length > MAX_HEADER_NAME_LENGTH) return refuse(`A header name may have at most ${MAX_HEADER_NAME_LENGTH} characters; one has ${name.length}.`);
    if (!TOKEN.test(name)) return refuse(`The header name ${JSON.stringify(name)} is not a valid HTTP field name (letters, digits and ${"!#$%&'*+-.^_`|~"} only).`);
    const lower = name.toLowerCase();
    if (seen.has(lower)) return refuse(`The header ${name} is given more than once (names are case-insensitive).`);
    seen.add(lower);
    if (REFUSED[lower] !== undefined) return refuse(`The header ${name} cannot be set: ${REFUSED[lower]}.`);
    if (typeof value !== 'string') return refuse(`The value of the header ${name} must be a string.`);
    if (value === '') return refuse(`The header ${name} has an empty value.`);
    if (value.length > MAX_HEADER_VALUE_LENGTH) {
      return refuse(`The value of the header ${name} may have at most ${MAX_HEADER_VALUE_LENGTH} characters; it has ${value.length}.`);
    }
    if (CR_LF_NUL.test(value)) return refuse(`The value of the header ${name} must not contain CR, LF or NUL.`);
    if (FORBIDDEN_IN_VALUE.test(value)) return refuse(`The value of the header ${name} must not contain control characters, nor characters beyond Latin-1.`);
    names.push(name);
    headers[name] = value;
  }
  return { ok: true, names, headers };
}

/** `Name: value` lines; blank lines ignored; a value's surrounding white space is not part of it. */
function lineEntries(input: string | readonly string[] | undefined): [string, unknown][] | ParsedHeaders {
  if (input === undefined) return [];
  const lines = (typeof input === 'string' ? [input] : input).flatMap((item) => item.split(/\r\n|\r|\n/));
  const entries: [string, unknown][] = [];
  let number = 0;
  for (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    // (The line is not quoted: without its colon it may well be a value.)
    if (colon === -1) return refuse(`Line ${number} of the headers has no colon: write each header as Name: value.`);
    entries.push([line.slice(0, colon).trim(), withoutOws(line.slice(colon + 1))]);
  }
  return entries;
}

function objectEntries(input: Record<string, unknown>): [string, unknown][] {
  return Object.entries(input).map(([name, value]) => [name.trim(), typeof value === 'string' ? withoutOws(value) : value]);
}

/** A field value without the spaces and tabs around it (RFC 9110 OWS); CR and LF stay, to be refused. */
function withoutOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** The headers as a request sends them: lower-case names (what undici and HostHeaders expect). */
export function sendableHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
