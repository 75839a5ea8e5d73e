// A crawl's scope (docs/crawls.md, "Scope and request headers"): the include and exclude patterns a
// URL of the crawled host must pass to be fetched, and the strip_params names, as the API takes them.
//
// A pattern matches the whole path plus query of the normalised URL: `*` any run of characters but
// `/`, `**` any run, every other character itself. Matching simulates the pattern's automaton one URL
// character at a time, its states a bit set, so it never backtracks: a URL of n characters costs
// n × (pattern length / 32) word operations, whatever the pattern (a regular expression of nested
// `[^/]*` would try exponentially many splits of a URL that almost matches).

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const MAX_PATTERNS = 20;
const MAX_PATTERN_LENGTH = 500;
const MAX_STRIP_PARAMS = 50;
const MAX_PARAM_NAME_LENGTH = 100;
const PARAM_NAME = /^[A-Za-z0-9._~\-[\]]+\*?$/;

/** Input as the API takes a list: one string (separated by `separators`) or an array of such strings. */
type ListInput = string | readonly string[] | undefined;

function pieces(input: ListInput, separators: RegExp): string[] {
  if (input === undefined) return [];
  const items = typeof input === 'string' ? [input] : input;
  return items.flatMap((item) => item.split(separators)).map((piece) => piece.trim()).filter((piece) => piece !== '');
}

/** What a message may quote of a piece of input: enough to find it, never the whole of a long one. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/** `include` or `exclude`: up to 20 patterns, newline- or comma-separated, in the order given. */
export function parsePatterns(field: 'include' | 'exclude', input: ListInput): Parsed<string[]> {
  const patterns = pieces(input, /[\n,]/);
  if (patterns.length > MAX_PATTERNS) {
    return { ok: false, message: `The ${field} may have at most ${MAX_PATTERNS} patterns; it has ${patterns.length}.` };
  }
  for (const pattern of patterns) {
    if (pattern.length > MAX_PATTERN_LENGTH) {
      return { ok: false, message: `Each ${field} pattern must be at most ${MAX_PATTERN_LENGTH} characters; ${quoted(pattern)} has ${pattern.length}.` };
    }
    if (/\s/.test(pattern)) return { ok: false, message: `The ${field} pattern ${quoted(pattern)} must not contain white space.` };
    if (!pattern.startsWith('/') && !pattern.startsWith('*')) {
      return { ok: false, message: `The ${field} pattern ${quoted(pattern)} must start with / or * (it matches the URL's path and query).` };
    }
  }
  return { ok: true, value: patterns };
}

/** `strip_params`: up to 50 parameter names (a trailing `*`: a prefix), separated by commas, newlines or spaces. */
export function parseStripParams(input: ListInput): Parsed<string[]> {
  const names = pieces(input, /[\s,]+/);
  if (names.length > MAX_STRIP_PARAMS) {
    return { ok: false, message: `The strip_params may have at most ${MAX_STRIP_PARAMS} names; it has ${names.length}.` };
  }
  for (const name of names) {
    const length = name.endsWith('*') ? name.length - 1 : name.length;
    if (length > MAX_PARAM_NAME_LENGTH) {
      return { ok: false, message: `Each strip_params name must be at most ${MAX_PARAM_NAME_LENGTH} characters; ${quoted(name)} has ${length}.` };
    }
    if (!PARAM_NAME.test(name)) {
      return {
        ok: false,
        message: `The strip_params name ${quoted(name)} must be letters, digits and . _ ~ - [ ] only, optionally ending in * (a prefix).`,
      };
    }
  }
  return { ok: true, value: names };
}

/** Which URLs of the host a crawl fetches. */
export interface CrawlScope {
  /** Matches an include pattern (or there are none) and no exclude pattern. */
  allows(url: string): boolean;
  /** The first exclude pattern the URL matches, else null. */
  excludedBy(url: string): string | null;
  /** Whether the URL matches an include pattern (true when there are none). */
  included(url: string): boolean;
}

const EVERYTHING: CrawlScope = { allows: () => true, excludedBy: () => null, included: () => true };

/** Compiled scopes by their patterns: a few crawls run at once per thread, each asking for every page. */
const MAX_SCOPES = 8;
const scopes = new Map<string, CrawlScope>();

/** The scope of `include` and `exclude` (as parsePatterns gives them), compiled once per thread. */
export function crawlScope(include: readonly string[] = [], exclude: readonly string[] = []): CrawlScope {
  if (include.length === 0 && exclude.length === 0) return EVERYTHING;
  const key = JSON.stringify([include, exclude]);
  let scope = scopes.get(key);
  if (scope === undefined) {
    scope = compileScope(include, exclude);
    if (scopes.size >= MAX_SCOPES) scopes.delete(scopes.keys().next().value!);
  } else {
    scopes.delete(key);
  }
  scopes.set(key, scope);
  return scope;
}

function compileScope(include: readonly string[], exclude: readonly string[]): CrawlScope {
  const includes = include.map(compilePattern);
  const excludes = exclude.map((pattern) => ({ pattern, matches: compilePattern(pattern) }));
  const included = (url: string) => {
    if (includes.length === 0) return true;
    const target = pathAndQuery(url);
    return includes.some((matches) => matches(target));
  };
  const excludedBy = (url: string) => {
    if (excludes.length === 0) return null;
    const target = pathAndQuery(url);
    return excludes.find(({ matches }) => matches(target))?.pattern ?? null;
  };
  return { included, excludedBy, allows: (url) => included(url) && excludedBy(url) === null };
}

/**
 * Why the start URL (normalised, without strip_params) would not be fetched, naming the field to
 * blame; null when it is in scope. The crawl must fetch its start URL.
 */
export function startUrlOutOfScope(url: string, include: readonly string[], exclude: readonly string[]): { field: 'include' | 'exclude'; message: string } | null {
  const scope = crawlScope(include, exclude);
  const target = quoted(pathAndQuery(url));
  if (!scope.included(url)) return { field: 'include', message: `The start URL (${target}) matches none of the include patterns: the crawl must fetch it.` };
  const pattern = scope.excludedBy(url);
  if (pattern !== null) return { field: 'exclude', message: `The start URL (${target}) matches the exclude pattern ${quoted(pattern)}: the crawl must fetch it.` };
  return null;
}

/** Longest a list of URLs is matched without letting the event loop run (sitemap seeds, on the main thread). */
const SLICE_MS = 20;

/** `scope.allows` of each URL, in slices of at most SLICE_MS. */
export async function allowedInSlices(scope: CrawlScope, urls: readonly string[]): Promise<boolean[]> {
  if (scope === EVERYTHING) return urls.map(() => true);
  const allowed: boolean[] = [];
  let sliceStart = performance.now();
  for (const url of urls) {
    allowed.push(scope.allows(url));
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise(setImmediate);
      sliceStart = performance.now();
    }
  }
  return allowed;
}

/** What a pattern is matched against: `/shop/b?color=red` of an absolute URL as the crawl keys it. */
export function pathAndQuery(url: string): string {
  const scheme = url.indexOf('://');
  const path = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  if (path === -1) return '/';
  const hash = url.indexOf('#', path);
  return hash === -1 ? url.slice(path) : url.slice(path, hash);
}

const SLASH = '/'.charCodeAt(0);
/** A star's loop on an automaton state: none, `*` (any character but `/`), `**` (any character). */
const NO_LOOP = 0;
const SEGMENT = 1;
const ANY = 2;

/**
 * A pattern as a test of a whole path plus query. State i of its automaton: the first i literal
 * characters matched; a star before literal i is a loop on state i (three or more stars in a row are
 * `**`). The states are the bits of `words` 32-bit words, all advanced at once for each character.
 */
export function compilePattern(pattern: string): (target: string) => boolean {
  const literals: number[] = [];
  const loops: number[] = [NO_LOOP];
  for (let index = 0; index < pattern.length; ) {
    if (pattern[index] !== '*') {
      literals.push(pattern.charCodeAt(index++));
      loops.push(NO_LOOP);
      continue;
    }
    let run = 0;
    while (pattern[index] === '*') {
      run++;
      index++;
    }
    loops[literals.length] = Math.max(loops[literals.length], run === 1 ? SEGMENT : ANY);
  }
  if (!pattern.includes('*')) return (target) => target === pattern;

  const states = literals.length + 1;
  const words = Math.ceil(states / 32);
  // For each character of the pattern: the states it leads to (bit i + 1 for literal i).
  const advances = new Map<number, Uint32Array>();
  literals.forEach((code, index) => {
    let mask = advances.get(code);
    if (mask === undefined) advances.set(code, (mask = new Uint32Array(words)));
    mask[(index + 1) >>> 5] |= 1 << ((index + 1) & 31);
  });
  const staysOnSlash = new Uint32Array(words);
  const staysOnOther = new Uint32Array(words);
  loops.forEach((loop, state) => {
    if (loop === ANY) staysOnSlash[state >>> 5] |= 1 << (state & 31);
    if (loop !== NO_LOOP) staysOnOther[state >>> 5] |= 1 << (state & 31);
  });
  const prefix = pattern.slice(0, pattern.indexOf('*'));
  const suffix = pattern.slice(pattern.lastIndexOf('*') + 1);
  const finalWord = literals.length >>> 5;
  const finalBit = 1 << (literals.length & 31);
  let current = new Uint32Array(words);
  let next = new Uint32Array(words);

  return (target) => {
    // Every literal is matched once: a shorter target, or one with another start or end, cannot match.
    if (target.length < literals.length || !target.startsWith(prefix) || !target.endsWith(suffix)) return false;
    current.fill(0);
    current[0] = 1;
    for (let position = 0; position < target.length; position++) {
      const code = target.charCodeAt(position);
      const advance = advances.get(code);
      const stays = code === SLASH ? staysOnSlash : staysOnOther;
      let carry = 0;
      let alive = 0;
      for (let word = 0; word < words; word++) {
        const bits = current[word];
        const moved = advance === undefined ? 0 : ((bits << 1) | carry) & advance[word];
        carry = bits >>> 31;
        const value = (moved | (bits & stays[word])) >>> 0;
        next[word] = value;
        alive |= value;
      }
      if (alive === 0) return false;
      [current, next] = [next, current];
    }
    return (current[finalWord] & finalBit) !== 0;
  };
}

/** A crawl's scope settings as its row stores them (JSON arrays), read back. */
export interface ScopeSettings {
  include: string[];
  exclude: string[];
  stripParams: string[];
}

export function scopeSettingsOf(crawl: { include: string; exclude: string; strip_params: string }): ScopeSettings {
  return { include: stringsOf(crawl.include), exclude: stringsOf(crawl.exclude), stripParams: stringsOf(crawl.strip_params) };
}

function stringsOf(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
