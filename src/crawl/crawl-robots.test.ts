import { describe, expect, it } from 'vitest';
import { analysisPool } from '../analysis/analysis-pool.ts';
import { loadCrawlRobots } from './crawl-robots.ts';
import { crawlAgent } from './user-agents.ts';

const AGENT = 'pagegrade';
const TWO_GROUPS = 'User-agent: *\nDisallow: /\nCrawl-delay: 9\n\nUser-agent: pagegrade\nDisallow: /private/\nCrawl-delay: 0.25\n';

describe('robots.txt as a crawl obeys it', () => {
  it('names the crawler by its user agent\'s product token, or the preset\'s', () => {
    const server = 'pagegrade/0.1 (+https://github.com/pagegrade/pagegrade; SEO report bot)';
    expect(crawlAgent('default', server)).toEqual({ userAgent: server, robotsToken: 'pagegrade' });
    expect(crawlAgent('default', 'Custom_Bot-2/1.0').robotsToken).toBe('custom_bot-');
    expect(crawlAgent('default', '/weird').robotsToken).toBe('*');
    expect(crawlAgent('desktop', server).robotsToken).toBe('pagegrade');
    expect(crawlAgent('googlebot_smartphone', server)).toMatchObject({ robotsToken: 'googlebot', userAgent: expect.stringMatching(/Nexus 5X.*Googlebot\/2\.1/) });
  });

  it.each([
    ['on the calling thread', undefined],
    ['on the analysis pool', analysisPool(2)],
  ])('obeys the group naming the crawler over the * group, with its Crawl-delay (%s)', async (_where, pool) => {
    const robots = await loadCrawlRobots(TWO_GROUPS, AGENT, pool);
    expect(await robots.allowed(['https://example.com/', 'https://example.com/private/page', 'https://example.com/x'])).toEqual([true, false, true]);
    expect(robots).toMatchObject({ delayMs: 250, text: TWO_GROUPS, token: 'pagegrade' });
  });

  it('falls back to the * group, and allows everything without a robots.txt', async () => {
    const robots = await loadCrawlRobots('User-agent: *\nDisallow: /admin\n', AGENT, analysisPool(2));
    expect(await robots.allowed(['https://example.com/admin/users', 'https://example.com/'])).toEqual([false, true]);
    expect(robots.delayMs).toBe(0);
    const none = await loadCrawlRobots(null, AGENT, analysisPool(2));
    expect(await none.allowed(['https://example.com/admin'])).toEqual([true]);
    expect(none).toMatchObject({ delayMs: 0, text: null, token: 'pagegrade' });
  });

  it('caps a Crawl-delay that would never let a crawl finish', async () => {
    expect((await loadCrawlRobots('User-agent: *\nCrawl-delay: 86400\n', AGENT)).delayMs).toBe(60_000);
  });

  it('answers a list longer than one message holds, in order', async () => {
    const robots = await loadCrawlRobots('User-agent: *\nDisallow: /*7$\n', AGENT, analysisPool(2));
    const urls = Array.from({ length: 25_003 }, (_, i) => `https://example.com/p${i}`);
    const allowed = await robots.allowed(urls);
    expect(allowed).toHaveLength(urls.length);
    expect(allowed.every((one, i) => one === !String(i).endsWith('7'))).toBe(true);
    expect(await robots.allowed([])).toEqual([]);
  });

  it('checks many URLs against a 500 KiB file of 120-wildcard rules in milliseconds each', async () => {
    const lines = ['User-agent: *'];
    for (let i = 0; lines.length < 2000; i++) lines.push(`Disallow: /${'*a'.repeat(119)}*${i.toString(36)}z`);
    lines.push('Disallow: /*zz$');
    const started = performance.now();
    const robots = await loadCrawlRobots(lines.join('\n'), AGENT);
    const urls = Array.from({ length: 5 }, (_, i) => `https://example.com/p${i}?q=${'a'.repeat(800)}`);
    expect(await robots.allowed([...urls, `https://example.com/p?q=${'a'.repeat(800)}zz`])).toEqual([true, true, true, true, true, false]);
    // About 0.1 s in all on an idle core (compiling the rules is most of it); the backtracking matcher
    // this replaced took some 20 s a URL. The bound leaves room for a busy machine.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
