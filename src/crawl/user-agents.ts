// The crawl's user agent presets (docs/crawls.md, "Request headers and user agent"): the User-Agent
// sent to the crawled host and to external links, and the robots.txt group the crawl obeys. The
// browser-like presets end with pagegrade's token so a site's logs can still tell us apart; the
// Googlebot ones are Google's own strings, so a site that serves Googlebot differently shows it.
import type { CrawlUserAgent } from '../db/tables/crawl.table.ts';
import { productToken } from '../robots/robots-txt.ts';

/** A current Chrome major version: what the Debian Chromium this project renders with reports. */
const CHROME_MAJOR = 156;
const PAGEGRADE_VERSION = '0.1';

const PRESETS: Record<Exclude<CrawlUserAgent, 'default'>, { userAgent: string; robotsToken: string }> = {
  desktop: {
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36 pagegrade/${PAGEGRADE_VERSION}`,
    robotsToken: 'pagegrade',
  },
  mobile: {
    userAgent: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Mobile Safari/537.36 pagegrade/${PAGEGRADE_VERSION}`,
    robotsToken: 'pagegrade',
  },
  googlebot_smartphone: {
    userAgent: `Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`,
    robotsToken: 'googlebot',
  },
  googlebot_desktop: {
    userAgent: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36`,
    robotsToken: 'googlebot',
  },
};

export interface CrawlAgent {
  /** the User-Agent header */
  userAgent: string;
  /** the robots.txt product token whose group is obeyed (RFC 9309: else `*`) */
  robotsToken: string;
}

/**
 * The preset's User-Agent and robots.txt token; `default` is the server's PAGEGRADE_USER_AGENT with
 * its own product token.
 */
export function crawlAgent(preset: CrawlUserAgent, defaultUserAgent: string): CrawlAgent {
  if (preset === 'default') return { userAgent: defaultUserAgent, robotsToken: productToken(defaultUserAgent) ?? '*' };
  return PRESETS[preset];
}
