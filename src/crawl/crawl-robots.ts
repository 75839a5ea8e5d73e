// robots.txt as a crawl obeys it: read once when the crawl starts and stored with it, so every process
// that crawls the site obeys the same file; parsed once per process and crawl.
import { crawlDelaySeconds, evaluateRobots, parseRobotsTxt } from '../robots/robots-txt.ts';

export interface CrawlRobots {
  allows(url: string): boolean;
  /** Crawl-delay for our user agent, in milliseconds (0 without). */
  delayMs: number;
}

/** The longest Crawl-delay obeyed: a site asking for more would never finish a crawl. */
const MAX_CRAWL_DELAY_MS = 60_000;

const parsed = new Map<string, CrawlRobots>();
const MAX_KEPT = 100;

/** The user agent's product token ("pagegrade" of "pagegrade/0.1 (+https://...)"), which robots.txt groups name. */
export function robotsToken(userAgent: string): string {
  return /^[a-z_-]+/i.exec(userAgent)?.[0].toLowerCase() ?? '*';
}

/** `text` null: no robots.txt (or not 200), so everything is allowed. */
export function crawlRobots(text: string | null, userAgent: string): CrawlRobots {
  if (text === null) return { allows: () => true, delayMs: 0 };
  const key = `${userAgent}\n${text}`;
  let robots = parsed.get(key);
  if (robots === undefined) {
    const rules = parseRobotsTxt(text);
    const agents = [robotsToken(userAgent)];
    const seconds = crawlDelaySeconds(rules, agents) ?? 0;
    robots = { allows: (url) => evaluateRobots(rules, url, agents).allowed, delayMs: Math.min(Math.round(seconds * 1000), MAX_CRAWL_DELAY_MS) };
    if (parsed.size >= MAX_KEPT) parsed.clear();
    parsed.set(key, robots);
  }
  return robots;
}
