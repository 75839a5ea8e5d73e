// URL helpers shared by the parser and the checks.

/** Resolve a raw attribute value against a base URL; null when it cannot be parsed. */
export function resolveUrl(raw: string, base: string): URL | null {
  const trimmed = raw.trim();
  if (!URL.canParse(trimmed, base)) return null;
  return new URL(trimmed, base);
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
  return url.hostname.replace(/^www\./, '');
}
