// robots.txt as a crawl obeys it: the group for the crawler's own user agent (else `*`), and its
// Crawl-delay, bounded.
import { crawlDelaySeconds, evaluateRobots, parseRobotsTxt, productToken } from '../robots/robots-txt.ts';

export interface CrawlRobots {
  allows(url: string): boolean;
  /** Crawl-delay for our user agent, in milliseconds (0 without). */
  delayMs: number;
}

/** The longest Crawl-delay obeyed: a site asking for more would never finish a crawl. */
const MAX_CRAWL_DELAY_MS = 60_000;

/** The user agent's product token ("pagegrade" of "pagegrade/0.1 (+https://...)"), which robots.txt groups name. */
export function robotsToken(userAgent: string): string {
  return productToken(userAgent) ?? '*';
}

/** `text` null: no robots.txt (or not 200), so everything is allowed. */
export function crawlRobots(text: string | null, userAgent: string): CrawlRobots {
  if (text === null) return { allows: () => true, delayMs: 0 };
  const rules = parseRobotsTxt(text);
  const agents = [robotsToken(userAgent)];
  const seconds = crawlDelaySeconds(rules, agents) ?? 0;
  return { allows: (url) => evaluateRobots(rules, url, agents).allowed, delayMs: Math.min(Math.round(seconds * 1000), MAX_CRAWL_DELAY_MS) };
}
