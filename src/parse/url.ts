// URL helpers shared by the parser and the checks.

/**
 * Several checks resolve the same hrefs of one page (links, resources, forms). Resolution is pure,
 * so results are memoised per base URL; checks of one page run synchronously one after another, so
 * a small number of bases covers a whole report. The returned URL objects are shared: never modify
 * one (use `withoutHash` and friends, which return strings).
 */
const MAX_BASES = 4;
const MAX_ENTRIES_PER_BASE = 20_000;
const resolved = new Map<string, Map<string, URL | null>>();

function parse(raw: string, base: string): URL | null {
  try {
    return new URL(raw, base);
  } catch {
    return null;
  }
}

/** Resolve a raw attribute value against a base URL; null when it cannot be parsed. Do not modify the result. */
export function resolveUrl(raw: string, base: string): URL | null {
  let forBase = resolved.get(base);
  if (forBase === undefined) {
    if (resolved.size >= MAX_BASES) resolved.clear();
    forBase = new Map();
    resolved.set(base, forBase);
  }
  let url = forBase.get(raw);
  if (url === undefined) {
    url = parse(raw.trim(), base);
    if (forBase.size >= MAX_ENTRIES_PER_BASE) forBase.clear();
    forBase.set(raw, url);
  }
  return url;
}

/** The URL's href without its #fragment. */
export function withoutHash(url: URL): string {
  return url.hash === '' ? url.href : url.href.slice(0, -url.hash.length);
}

/** True for an absolute http(s) URL as written (no base needed). */
export function isAbsoluteHttpUrl(raw: string): boolean {
  const trimmed = raw.trim();
  if (!URL.canParse(trimmed)) return false;
  const protocol = new URL(trimmed).protocol;
  return protocol === 'http:' || protocol === 'https:';
}

/** The registrable-ish host used to tell internal from external links: host without a leading "www.". */
export function siteHost(url: URL): string {
  return siteHostname(url.hostname);
}

/** `siteHost` of a URL with this hostname. */
export function siteHostname(hostname: string): string {
  return hostname.startsWith('www.') ? hostname.slice(4) : hostname;
}

/** `siteHostname(hostname) === site`, without making a new string. */
export function hostnameHasSite(hostname: string, site: string): boolean {
  return hostname.startsWith('www.') ? hostname.length === site.length + 4 && hostname.endsWith(site) : hostname === site;
}
