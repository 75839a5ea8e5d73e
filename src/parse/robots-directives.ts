// Robots directives, as the robots meta tag's content and the X-Robots-Tag header write them:
// "noindex, nofollow", "max-snippet: 20", "unavailable_after: Wed, 21 Oct 2015 07:28:00 GMT", and
// on a header line "otherbot: noindex" scoping the directives that follow to one crawler.

/** Robots directives that take a value after a colon, so "max-snippet: 20" is not a user agent named max-snippet. */
const VALUED_DIRECTIVES = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);

interface ScopedDirective {
  /** The crawler the directive is addressed to (lower-case), or null for every crawler. */
  agent: string | null;
  directive: string;
}

/** Comma-separated directives, lower-case; a comma before a digit belongs to a date ("unavailable_after: Wed, 21 Oct 2015"). */
export function robotsDirectives(list: string): string[] {
  return list
    .split(/,(?!\s*\d)/)
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * One X-Robots-Tag header line. A token "name: directive" scopes it and the tokens after it on the
 * same line to crawler `name` ("otherbot: noindex, nofollow").
 */
export function xRobotsTagDirectives(header: string): ScopedDirective[] {
  const directives: ScopedDirective[] = [];
  let agent: string | null = null;
  for (const token of robotsDirectives(header)) {
    let directive = token;
    const colon = token.indexOf(':');
    if (colon !== -1) {
      const prefix = token.slice(0, colon).trim();
      if (!VALUED_DIRECTIVES.has(prefix) && /^[a-z0-9_-]+$/.test(prefix)) {
        agent = prefix;
        directive = token.slice(colon + 1).trim();
      }
    }
    directives.push({ agent, directive });
  }
  return directives;
}
