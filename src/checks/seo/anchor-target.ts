// Where an <a href> points, for the link checks: its resolved URL, and whether it only jumps within
// the page being analysed (`#section`, or `/page#section` on /page), which is not a link to another page.
import { resolveUrl } from '../../parse/url.ts';

export interface AnchorTarget {
  /** The href resolved against the page's base URL; null when it cannot be parsed. */
  url: URL | null;
  /** True for a fragment link to the page itself. */
  samePageFragment: boolean;
}

export function anchorTarget(href: string, baseUrl: string, pageUrl: string): AnchorTarget {
  const url = resolveUrl(href, baseUrl);
  if (url === null) return { url: null, samePageFragment: false };
  return { url, samePageFragment: href.includes('#') && withoutFragment(url.href) === withoutFragment(pageUrl) };
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
