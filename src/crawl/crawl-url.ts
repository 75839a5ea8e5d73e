// Which URLs a crawl takes, and in what form: the start URL's host only (in list mode, the listed
// URLs' hosts), http(s), normalised as report URLs are (fragment dropped, default port,
// percent-encoding as the URL standard writes it), without the query parameters the crawl strips
// (strip_params: docs/crawls.md, "Scope and request headers").
import { parseTargetUrl } from '../analysis/target-url.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { Parsed } from './crawl-scope.ts';

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

// ---- list mode (docs/crawls.md, "List mode") ----

/**
 * The most distinct hosts one list may name: each costs start requests (robots.txt, the origin's
 * probes) out of the crawl's request budget, and its origin facts are kept with the crawl for every
 * page analysed there.
 */
const MAX_LIST_HOSTS = 50;

export interface CrawlList {
  /** normalised, strip_params removed, duplicates dropped, in the order given */
  urls: string[];
  /** their hosts (URL.host, with :port when not the default), in order of first use */
  hosts: string[];
}

/**
 * `urls` of POST /crawls: one string or an array of them, each split at line ends and at a comma that
 * starts another URL (a comma inside a URL, `?a=1,2`, stays), blank entries skipped; each an absolute
 * http(s) URL as `url` accepts; 1 to `maxUrls` distinct ones on at most MAX_LIST_HOSTS hosts.
 */
export function parseCrawlUrls(input: string | readonly string[], maxUrls: number, strip: ParamStripper | null): Parsed<CrawlList> {
  const entries = (typeof input === 'string' ? [input] : input)
    .flatMap((item) => item.split(/\r\n|\r|\n|,(?=\s*https?:\/\/)/i))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const urls = new Set<string>();
  const hosts = new Set<string>();
  // A list repeating one address many times parses it once.
  const seen = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    if (seen.has(entry)) continue;
    seen.add(entry);
    const target = parseTargetUrl(entry);
    if (!target.ok) {
      // Never echoed when it holds a password.
      const shown = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(entry) ? '' : ` (${JSON.stringify(entry.length > 100 ? `${entry.slice(0, 97)}...` : entry)})`;
      return { ok: false, message: target.message.replace(/^The url\b/, `The urls entry ${index + 1}${shown}`) };
    }
    urls.add(strip ? strip(target.url) : target.url);
    hosts.add(target.project);
    if (urls.size > maxUrls) return { ok: false, message: `The urls may list at most ${maxUrls} distinct URLs (max_pages); more are given.` };
    if (hosts.size > MAX_LIST_HOSTS) return { ok: false, message: `The urls may name at most ${MAX_LIST_HOSTS} hosts; more are named.` };
  }
  if (urls.size === 0) return { ok: false, message: 'The urls must list at least one URL.' };
  return { ok: true, value: { urls: [...urls], hosts: [...hosts] } };
}

/** A list crawl's URLs as the engine uses them. */
export interface ListedUrls extends CrawlList {
  listed: ReadonlySet<string>;
  hostSet: ReadonlySet<string>;
}

const listedOf = new WeakMap<object, ListedUrls | null>();

/** The crawl's listed URLs (null for a spider crawl), read once per crawl row. */
export function listedUrlsOf(crawl: Partial<Pick<CrawlRow, 'mode' | 'urls'>>): ListedUrls | null {
  let known = listedOf.get(crawl);
  if (known === undefined) {
    if (crawl.mode !== 'list' || crawl.urls == null) known = null;
    else {
      const urls = JSON.parse(crawl.urls) as string[];
      const hosts = [...new Set(urls.map((url) => new URL(url).host))];
      known = { urls, hosts, listed: new Set(urls), hostSet: new Set(hosts) };
    }
    listedOf.set(crawl, known);
  }
  return known;
}

/**
 * A URL a list crawl's page or redirect leads to, as the crawl keys it, when it is on one of the
 * listed hosts (so it is fetched as a URL of the crawl); null when it is on another host.
 */
export function listedHostUrl(url: string, list: Pick<ListedUrls, 'hostSet'>, strip?: ParamStripper | null): string | null {
  const target = parseTargetUrl(url);
  if (!target.ok || !list.hostSet.has(target.project)) return null;
  return strip ? strip(target.url) : target.url;
}
