// robots.txt questions asked in bulk, answered where the file is parsed (an analysis thread, or the
// calling thread without one): whether each URL may be fetched by one crawler, and that crawler's
// Crawl-delay.
import { parsedRobotsTxt } from './parsed-robots.ts';
import { crawlDelaySeconds, evaluateRobots } from './robots-txt.ts';

export interface RobotsQuestion {
  text: string;
  /** The product token whose group is obeyed ("pagegrade"); `*` when it has none. */
  token: string;
  urls: readonly string[];
}

export interface RobotsAnswer {
  /** One per URL asked about, in order. */
  allowed: boolean[];
  /** The group's Crawl-delay, or null when it sets none. */
  crawlDelaySeconds: number | null;
}

export function answerRobots(question: RobotsQuestion): RobotsAnswer {
  const robots = parsedRobotsTxt(question.text);
  const agents = [question.token];
  const allowed = question.urls.map((url) => evaluateRobots(robots, url, agents).allowed);
  return { allowed, crawlDelaySeconds: crawlDelaySeconds(robots, agents) };
}

/** The absolute sitemap URLs a robots.txt lists (`Sitemap:` lines, as parseRobotsTxt keeps them). */
export function robotsSitemaps(text: string): string[] {
  return parsedRobotsTxt(text).sitemaps;
}
