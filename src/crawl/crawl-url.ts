// Which URLs a crawl takes, and in what form: the start URL's host only, http(s), normalised as report
// URLs are (fragment dropped, default port, percent-encoding as the URL standard writes it), without
// the query parameters the crawl strips (strip_params: docs/crawls.md, "Scope and request headers").
import { parseTargetUrl } from '../analysis/target-url.ts';

/** Removes the crawl's strip_params from a normalised URL; the URL itself when it has none of them. */
export type ParamStripper = (url: string) => string;

/**
 * The URL as the crawl keys it, or null when it is off the host or not a page address; `strip`: the
 * crawl's strip_params (paramStripper), applied after normalisation.
 */
export function crawlUrl(url: string | URL, host: string, strip?: ParamStripper | null): string | null {
  const href = typeof url === 'string' ? url : url.href;
  const target = parseTargetUrl(href);
  if (!target.ok || target.project !== host) return null;
  return strip ? strip(target.url) : target.url;
}

/**
 * The stripper of `names` (as parseStripParams accepts them: exact, or a prefix ending in `*`),
 * matched case-sensitively against each parameter's percent-decoded name; null when there are none.
 * The other parameters keep their order and their bytes; a query left empty goes with its `?`.
 */
export function paramStripper(names: readonly string[]): ParamStripper | null {
  if (names.length === 0) return null;
  const exact = new Set(names.filter((name) => !name.endsWith('*')));
  const prefixes = names.filter((name) => name.endsWith('*')).map((name) => name.slice(0, -1));
  const stripped = (name: string) => exact.has(name) || prefixes.some((prefix) => name.startsWith(prefix));
  return (url) => {
    const question = url.indexOf('?');
    if (question === -1) return url;
    const pieces = url.slice(question + 1).split('&');
    const kept = pieces.filter((piece) => !stripped(paramName(piece)));
    if (kept.length === pieces.length) return url;
    // Empty pieces (`a=1&&b=2`) carry nothing: they go too once the query is rewritten.
    const rest = kept.filter((piece) => piece !== '');
    return rest.length === 0 ? url.slice(0, question) : `${url.slice(0, question)}?${rest.join('&')}`;
  };
}

/** A query piece's name, percent-decoded (`utm%5Fsource` is utm_source); as written when it cannot be. */
function paramName(piece: string): string {
  const equals = piece.indexOf('=');
  const name = equals === -1 ? piece : piece.slice(0, equals);
  if (!name.includes('%')) return name;
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
