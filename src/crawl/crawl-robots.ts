// robots.txt as a crawl obeys it: the group for the crawler's own user agent (else `*`), and its
// Crawl-delay, bounded. A robots.txt may be 500 KiB of wildcard rules: it is parsed and matched off the
// main thread (on the analysis pool, each thread parsing a text once), so a crawl asks for whole lists
// of URLs at once.
import type { AnalysisPool } from '../analysis/analysis-pool.ts';
import { answerRobots, type RobotsAnswer, type RobotsQuestion } from '../robots/robots-answer.ts';

export interface CrawlRobots {
  /** Whether robots.txt lets the crawl fetch each URL, in order. */
  allowed(urls: readonly string[]): Promise<boolean[]>;
  /** Crawl-delay for our user agent, in milliseconds (0 without). */
  delayMs: number;
  /** The text obeyed (null: none), and the token whose group is obeyed: what a page's analysis filters its links by. */
  text: string | null;
  token: string;
}

/** The longest Crawl-delay obeyed: a site asking for more would never finish a crawl. */
const MAX_CRAWL_DELAY_MS = 60_000;
/**
 * URLs per message to a thread: a list is split in about eight so that several threads answer it at
 * once (1,000 long URLs against 500 KiB of wildcard rules take seconds of one thread), and no one
 * message is large (10,000 URLs of 2,000 characters are 20 MB to copy).
 */
const MAX_URLS_PER_TASK = 10_000;
const MIN_URLS_PER_TASK = 100;
const TASKS_PER_LIST = 8;

/**
 * `text` null: no robots.txt (or not 200), so everything is allowed. `token`: the product token whose
 * group is obeyed (crawlAgent). `pool`: where the parsing and matching run (without one, here).
 */
export async function loadCrawlRobots(text: string | null, token: string, pool?: AnalysisPool): Promise<CrawlRobots> {
  if (text === null) return { allowed: async (urls) => urls.map(() => true), delayMs: 0, text, token };
  const ask = (urls: readonly string[]): Promise<RobotsAnswer> => {
    const question: RobotsQuestion = { text, token, urls };
    return pool ? pool.robots(question) : Promise.resolve(answerRobots(question));
  };
  // Asking about no URL parses the file (on a thread, which keeps it for the questions after) and gives its delay.
  const seconds = (await ask([])).crawlDelaySeconds ?? 0;
  return {
    async allowed(urls) {
      const size = Math.min(MAX_URLS_PER_TASK, Math.max(MIN_URLS_PER_TASK, Math.ceil(urls.length / TASKS_PER_LIST)));
      const chunks: Promise<RobotsAnswer>[] = [];
      for (let start = 0; start < urls.length; start += size) chunks.push(ask(urls.slice(start, start + size)));
      const answers = await Promise.all(chunks);
      const allowed: boolean[] = [];
      for (const answer of answers) for (const one of answer.allowed) allowed.push(one);
      return allowed;
    },
    delayMs: Math.min(Math.round(seconds * 1000), MAX_CRAWL_DELAY_MS),
    text,
    token,
  };
}
