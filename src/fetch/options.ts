// What the caller controls about a fetch. The operator's configuration fills these in.

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
}

export const DEFAULT_USER_AGENT = 'pagegrade/0.1 (+https://github.com/pagegrade/pagegrade; SEO report bot)';
