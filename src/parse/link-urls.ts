// Where a snapshot's links and sub-resources point, worked out once per snapshot and shared by the
// checks. Five link checks read every <a href> and three resource checks every resource; looking each
// one up again in resolveUrl's memo (and reading `protocol`, a new string per read) cost about as much
// as parsing the URLs. Most link checks only need the protocol and host name, or the URL without its
// fragment, and for ordinary hrefs those are read off the href as written (quick-url.ts); a link is
// parsed only when a check needs more of it. Resources are parsed up front: their checks need most
// of them whole (image paths and queries, hrefs to count), and on long URLs the URL parser is as fast
// as reading them in JavaScript. Every answer is the one `resolveUrl(raw, snapshot.baseUrl)` gives.
// Snapshots are not changed once parsed, so the answers are kept per snapshot.
import type { PageSnapshot } from './page-snapshot.ts';
import { QuickUrlReader } from './quick-url.ts';
import { resolveUrl, withoutHash } from './url.ts';
import { isJsWhitespace } from './whitespace.ts';

/** Where each of a list of raw URLs (attribute values; null for none) points against one base URL. */
export class UrlTargets {
  /** The resolved URL's protocol; '' when there is no URL or it does not parse. */
  readonly protocols: string[];
  /** The resolved URL's hostname; '' as for `protocols`, and for URLs without a host (mailto:). */
  readonly hostnames: string[];
  /** Full URLs parsed so far (undefined: not yet). */
  private readonly urls: (URL | null | undefined)[];
  private readonly reader: QuickUrlReader | null;
  /** The base URL without fragment, as fragment-only hrefs resolve (undefined: not worked out yet). */
  private baseWithoutFragment: string | null | undefined = undefined;

  /**
   * `parseAll`: every URL will be needed whole (the resource checks read the paths and queries of
   * images, and count by href), so each is parsed once up front, as resolveUrl memoises it.
   */
  constructor(
    private readonly raws: readonly (string | null)[],
    private readonly baseUrl: string,
    parseAll = false,
  ) {
    this.protocols = new Array<string>(raws.length).fill('');
    this.hostnames = new Array<string>(raws.length).fill('');
    this.urls = new Array<URL | null | undefined>(raws.length).fill(undefined);
    const reader = (this.reader = parseAll ? null : QuickUrlReader.forBase(baseUrl));
    for (let i = 0; i < raws.length; i++) {
      const raw = raws[i];
      if (raw === null) continue;
      if (reader !== null && reader.read(raw)) {
        this.protocols[i] = reader.protocol;
        this.hostnames[i] = reader.hostname;
      } else {
        const url = this.url(i);
        if (url === null) continue;
        this.protocols[i] = url.protocol;
        this.hostnames[i] = url.hostname;
      }
    }
  }

  /** `resolveUrl(raws[i], baseUrl)`: null when `protocols[i]` is ''. Shared: do not modify. */
  url(i: number): URL | null {
    let url = this.urls[i];
    if (url === undefined) {
      const raw = this.raws[i];
      url = raw === null ? null : resolveUrl(raw, this.baseUrl);
      this.urls[i] = url;
    }
    return url;
  }

  /**
   * `url(i).href` up to its first "#"; null when `url(i)` is null. A fragment-only href (`#top`)
   * resolves to the base URL with that fragment, so those need no reading of their own.
   */
  hrefWithoutFragment(i: number): string | null {
    const raw = this.raws[i];
    if (raw === null) return null;
    let first = 0;
    while (first < raw.length && isJsWhitespace(raw.charCodeAt(first))) first++;
    if (raw.charCodeAt(first) === 0x23) {
      if (this.baseWithoutFragment === undefined) {
        const base = resolveUrl('#', this.baseUrl);
        this.baseWithoutFragment = base === null ? null : withoutFragment(base.href);
      }
      return this.baseWithoutFragment;
    }
    const parts = this.parts(i);
    if (parts !== null) return parts.hrefWithoutFragment;
    const url = this.url(i);
    return url === null ? null : withoutFragment(url.href);
  }

  /**
   * Whether href i only jumps within the page being analysed (`#top`, or `/page#top` on /page), which is
   * not a link to another page: it has a "#" and resolves, fragment aside, to `pageWithoutFragment`
   * (`withoutFragment` of the page's URL, worked out once per check run).
   */
  jumpsWithinPage(i: number, pageWithoutFragment: string): boolean {
    return this.raws[i]?.includes('#') === true && this.hrefWithoutFragment(i) === pageWithoutFragment;
  }

  /** `url(i).href`; null when `url(i)` is null. */
  href(i: number): string | null {
    // without a "#" there is no fragment: the href is the href without fragment
    const parts = this.raws[i]?.includes('#') === false ? this.parts(i) : null;
    if (parts !== null) return parts.hrefWithoutFragment;
    return this.url(i)?.href ?? null;
  }

  /** url.ts `withoutHash(url(i))`; null when `url(i)` is null. */
  hrefWithoutHash(i: number): string | null {
    const parts = this.parts(i);
    if (parts !== null) return parts.hrefWithoutHash;
    const url = this.url(i);
    return url === null ? null : withoutHash(url);
  }

  /** `url(i).pathname`; null when `url(i)` is null. */
  pathname(i: number): string | null {
    const parts = this.parts(i);
    if (parts !== null) return parts.pathname;
    const url = this.url(i);
    return url === null ? null : url.pathname;
  }

  /** The reader once `readParts` read `raws[i]`; null when there is none or only `url(i)` can tell. */
  private parts(i: number): QuickUrlReader | null {
    const raw = this.raws[i];
    return raw !== null && this.reader !== null && this.reader.readParts(raw) ? this.reader : null;
  }
}

type AnchorSource = Pick<PageSnapshot, 'anchors' | 'baseUrl'>;
type ResourceSource = Pick<PageSnapshot, 'resources' | 'baseUrl'>;

const anchorCache = new WeakMap<AnchorSource, UrlTargets>();
const resourceCache = new WeakMap<ResourceSource, UrlTargets>();

/** Where each of `snapshot.anchors` points (index i: anchors[i]; href null: no URL). */
export function anchorTargets(snapshot: AnchorSource): UrlTargets {
  let targets = anchorCache.get(snapshot);
  if (targets === undefined) {
    targets = new UrlTargets(
      snapshot.anchors.map((anchor) => anchor.href),
      snapshot.baseUrl,
    );
    anchorCache.set(snapshot, targets);
  }
  return targets;
}

/** Where each of `snapshot.resources` points (index i: resources[i]). */
export function resourceTargets(snapshot: ResourceSource): UrlTargets {
  let targets = resourceCache.get(snapshot);
  if (targets === undefined) {
    targets = new UrlTargets(
      snapshot.resources.map((ref) => ref.url),
      snapshot.baseUrl,
      true,
    );
    resourceCache.set(snapshot, targets);
  }
  return targets;
}

/** `protocol` is http: or https:. */
export function isWebProtocol(protocol: string): boolean {
  return protocol === 'https:' || protocol === 'http:';
}

/** `url` up to its first "#" (an href's fragment: no "#" comes before it in a serialised URL). */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
