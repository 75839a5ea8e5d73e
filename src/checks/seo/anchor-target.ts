// Whether an <a href> only jumps within the page being analysed (`#section`, or `/page#section` on
// /page), which is not a link to another page, for the link checks. The href's URL comes resolved
// (parse/link-urls.ts).

/**
 * True for a fragment link to the page itself: `href` as written, `resolvedWithoutFragment` the URL it
 * resolves to without its fragment, `pageUrl` the page's URL.
 */
export function isSamePageFragment(href: string, resolvedWithoutFragment: string, pageUrl: string): boolean {
  return href.includes('#') && resolvedWithoutFragment === withoutFragment(pageUrl);
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
