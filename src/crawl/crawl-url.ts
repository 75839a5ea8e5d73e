// Which URLs a crawl takes, and in what form: the start URL's host only, http(s), normalised as report
// URLs are (fragment dropped, default port, percent-encoding as the URL standard writes it).
import { parseTargetUrl } from '../analysis/target-url.ts';

/** The URL as the crawl keys it, or null when it is off the host or not a page address. */
export function crawlUrl(url: string | URL, host: string): string | null {
  const href = typeof url === 'string' ? url : url.href;
  const target = parseTargetUrl(href);
  if (!target.ok || target.project !== host) return null;
  return target.url;
}
