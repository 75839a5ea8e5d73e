// What the caller controls about a fetch. The operator's configuration fills these in.
import type { SitemapContent } from './sitemap-xml.ts';

/**
 * Threads that parse what a site may make large (a sitemap of megabytes, a robots.txt of 500 KiB), so
 * that the event loop stays free: the analysis pool is one (analysis/analysis-pool.ts).
 */
export interface ParsingThreads {
  /** A sitemap file's bytes (gunzipped), decoded with its charset label (else sniffed) and parsed (sitemap-xml.ts). */
  parseSitemap(bytes: Uint8Array, charsetLabel: string | null): Promise<SitemapContent>;
  /** The absolute sitemap URLs a robots.txt lists (its `Sitemap:` lines, as parseRobotsTxt reads them). */
  robotsSitemaps(text: string): Promise<string[]>;
}

export interface FetchOptions {
  /** One deadline for the whole fetch: every redirect plus the body. */
  timeoutMs: number;
  /** Largest decoded body read; a larger one is a `too_large` failure. */
  maxBytes: number;
  userAgent: string;
  /** Allow loopback, private, link-local and reserved targets (tests, intranets). */
  allowPrivate: boolean;
  /**
   * Test seam: IP addresses treated as public even when `allowPrivate` is false, so that the guard
   * can be exercised against servers on this machine (e.g. '127.0.0.2').
   */
  publicAddressesForTests?: string[];
  /**
   * Addresses and CIDR ranges allowed although not public, as config.ts parses PAGEGRADE_ALLOWED_ADDRESSES
   * (allowed-addresses.ts); every other refused address stays refused.
   */
  allowedAddresses?: readonly string[];
  /** Where sitemaps and robots.txt are parsed; without, on the calling thread. */
  pool?: ParsingThreads;
  /** Headers sent to one host only (a crawl's request headers); never to another. */
  hostHeaders?: HostHeaders;
}

/**
 * Request headers for the requests to `hosts` (as URL.host writes them, with the port), each redirect
 * hop checked on its own: a hop to another host goes without them. Names lower-case; a name the
 * fetcher also sends (Accept, say) takes this value instead.
 */
export interface HostHeaders {
  hosts: readonly string[];
  headers: Readonly<Record<string, string>>;
}

export const DEFAULT_USER_AGENT = 'pagegrade/0.1 (+https://github.com/pagegrade/pagegrade; SEO report bot)';
