import { describe, expect, it } from 'vitest';
import { crawlRobots, robotsToken } from './crawl-robots.ts';

const AGENT = 'pagegrade/0.1 (+https://github.com/pagegrade/pagegrade; SEO report bot)';

describe('robots.txt as a crawl obeys it', () => {
  it('names the crawler by its user agent\'s product token', () => {
    expect(robotsToken(AGENT)).toBe('pagegrade');
    expect(robotsToken('Custom_Bot-2/1.0')).toBe('custom_bot-');
    expect(robotsToken('/weird')).toBe('*');
  });

  it('obeys the group naming the crawler over the * group, with its Crawl-delay', () => {
    const robots = crawlRobots('User-agent: *\nDisallow: /\nCrawl-delay: 9\n\nUser-agent: pagegrade\nDisallow: /private/\nCrawl-delay: 0.25\n', AGENT);
    expect(robots.allows('https://example.com/')).toBe(true);
    expect(robots.allows('https://example.com/private/page')).toBe(false);
    expect(robots.delayMs).toBe(250);
  });

  it('falls back to the * group, and allows everything without a robots.txt', () => {
    const robots = crawlRobots('User-agent: *\nDisallow: /admin\n', AGENT);
    expect(robots.allows('https://example.com/admin/users')).toBe(false);
    expect(robots.delayMs).toBe(0);
    const none = crawlRobots(null, AGENT);
    expect(none.allows('https://example.com/admin')).toBe(true);
    expect(none.delayMs).toBe(0);
  });

  it('caps a Crawl-delay that would never let a crawl finish', () => {
    expect(crawlRobots('User-agent: *\nCrawl-delay: 86400\n', AGENT).delayMs).toBe(60_000);
  });

  it('checks many URLs against a 500 KiB file of 120-wildcard rules in milliseconds each', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; lines.length < 2000; i++) lines.push(`Disallow: /${'*a'.repeat(119)}*${i.toString(36)}z`);
    lines.push('Disallow: /*zz$');
    const robots = crawlRobots(lines.join('\n'), AGENT);
    const started = performance.now();
    for (let i = 0; i < 5; i++) expect(robots.allows(`https://example.com/p${i}?q=${'a'.repeat(800)}`)).toBe(true);
    expect(robots.allows(`https://example.com/p?q=${'a'.repeat(800)}zz`)).toBe(false);
    // About 0.1 s in all on an idle core (compiling the rules is most of it); the backtracking matcher
    // this replaced took some 20 s a URL. The bound leaves room for a busy machine.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
