// robots.txt through the whole pipeline, read as RFC 9309 says: Googlebot's group if there is one,
// else `*`; the longest matching pattern decides and Allow wins a tie; `*` matches any run of
// characters and a final `$` the end of the URL. A 4xx robots.txt allows everything, a 5xx one
// leaves the question open (null).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, htmlPage, notFound, redirect, respond, startGoldenSite, type GoldenSite, type Handler } from './support/golden-site.ts';

const PAGE = '<!DOCTYPE html><html lang="en"><head><title>Robots golden page</title></head><body><h1>Hello</h1></body></html>';

const analyze = analyzer();
const sites: GoldenSite[] = [];

beforeEach(() => clearOriginFactsCache());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((started) => started.close()));
});

/** A site whose every other path answers the page, with robots.txt answered by `robots`. */
async function siteWithRobots(robots: Handler, routes: Record<string, Handler> = {}): Promise<GoldenSite> {
  const started = await startGoldenSite({ ...routes, '/robots.txt': robots }, htmlPage(PAGE));
  sites.push(started);
  return started;
}

const robotsTxt = (body: string) => respond(body, 'text/plain');

interface RuleCase {
  name: string;
  robots: string;
  path: string;
  allowed: boolean;
  group: string | null;
  /** The deciding rule, or null when none matched. */
  rule: { type: 'allow' | 'disallow'; pattern: string; line: number } | null;
}

const RULE_CASES: RuleCase[] = [
  {
    name: "Googlebot's own group replaces the * group",
    robots: 'User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /shop/\n',
    path: '/shop/coffee',
    allowed: false,
    group: 'googlebot',
    rule: { type: 'disallow', pattern: '/shop/', line: 5 },
  },
  {
    name: "another crawler's group does not apply; * does",
    robots: 'User-agent: bingbot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n',
    path: '/shop/coffee',
    allowed: true,
    group: '*',
    rule: null,
  },
  {
    name: 'consecutive user-agent lines share one group',
    robots: 'User-agent: bingbot\nUser-agent: Googlebot\nDisallow: /shop/\n',
    path: '/shop/coffee',
    allowed: false,
    group: 'googlebot',
    rule: { type: 'disallow', pattern: '/shop/', line: 3 },
  },
  {
    name: 'no group for Googlebot or * allows everything',
    robots: 'User-agent: bingbot\nDisallow: /\n',
    path: '/shop/coffee',
    allowed: true,
    group: null,
    rule: null,
  },
  {
    name: '* inside a pattern matches any run of characters',
    robots: 'User-agent: *\nDisallow: /shop/*/reviews\n',
    path: '/shop/coffee/reviews',
    allowed: false,
    group: '*',
    rule: { type: 'disallow', pattern: '/shop/*/reviews', line: 2 },
  },
  {
    name: '* does not make a pattern match a path without its literal parts',
    robots: 'User-agent: *\nDisallow: /shop/*/reviews\n',
    path: '/shop/coffee',
    allowed: true,
    group: '*',
    rule: null,
  },
  {
    name: '$ anchors the pattern at the end of the URL',
    robots: 'User-agent: *\nDisallow: /*.php$\n',
    path: '/cart.php',
    allowed: false,
    group: '*',
    rule: { type: 'disallow', pattern: '/*.php$', line: 2 },
  },
  {
    name: '$ does not match when a query string follows',
    robots: 'User-agent: *\nDisallow: /*.php$\n',
    path: '/cart.php?step=2',
    allowed: true,
    group: '*',
    rule: null,
  },
  {
    name: 'a longer Allow beats a shorter Disallow',
    robots: 'User-agent: *\nDisallow: /shop\nAllow: /shop/coffee\n',
    path: '/shop/coffee/beans',
    allowed: true,
    group: '*',
    rule: { type: 'allow', pattern: '/shop/coffee', line: 3 },
  },
  {
    name: 'a longer Disallow beats a shorter Allow, whatever the order',
    robots: 'User-agent: *\nDisallow: /shop/coffee\nAllow: /shop\n',
    path: '/shop/coffee/beans',
    allowed: false,
    group: '*',
    rule: { type: 'disallow', pattern: '/shop/coffee', line: 2 },
  },
  {
    name: 'Allow wins a tie between patterns of the same length',
    robots: 'User-agent: *\nDisallow: /shop/c*\nAllow: /shop/co\n',
    path: '/shop/coffee',
    allowed: true,
    group: '*',
    rule: { type: 'allow', pattern: '/shop/co', line: 3 },
  },
  {
    name: 'Allow wins a tie whichever rule comes first',
    robots: 'User-agent: *\nAllow: /shop\nDisallow: /shop\n',
    path: '/shop/coffee',
    allowed: true,
    group: '*',
    rule: { type: 'allow', pattern: '/shop', line: 2 },
  },
  {
    name: '/$ blocks the home page only',
    robots: 'User-agent: *\nDisallow: /$\n',
    path: '/',
    allowed: false,
    group: '*',
    rule: { type: 'disallow', pattern: '/$', line: 2 },
  },
  {
    name: 'a UTF-8 pattern matches the percent-encoded URL path',
    robots: 'User-agent: *\nDisallow: /café/\n',
    path: '/caf%C3%A9/menu',
    allowed: false,
    group: '*',
    rule: { type: 'disallow', pattern: '/café/', line: 2 },
  },
  {
    name: 'an empty Disallow allows everything',
    robots: 'User-agent: *\nDisallow:\n',
    path: '/shop/coffee',
    allowed: true,
    group: '*',
    rule: null,
  },
  {
    name: "a group for Googlebot-Image is not Googlebot's",
    robots: 'User-agent: Googlebot-Image\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    path: '/shop/coffee',
    allowed: true,
    group: '*',
    rule: { type: 'allow', pattern: '/', line: 5 },
  },
];

describe('robots.txt rules', () => {
  it.each(RULE_CASES)('$name', async (testCase) => {
    const started = await siteWithRobots(robotsTxt(testCase.robots));
    const analysis = await analyze(started.url(testCase.path));
    const robots = analysis.results.robots;

    expect(robots.passed).toBe(testCase.allowed);
    expect(robots.value).toMatchObject({ url: started.url(testCase.path), group: testCase.group, rule: testCase.rule });
    expect(analysis.results.robots_txt_valid.passed).toBe(true);
    // A page robots.txt blocks is never "good", however well made.
    if (!testCase.allowed) expect(analysis.result).not.toBe('good');
  });
});

describe('robots.txt that is missing, failing or invalid', () => {
  it('allows everything when robots.txt answers 404', async () => {
    const started = await siteWithRobots(notFound);
    const analysis = await analyze(started.url('/shop/coffee'));

    expect(analysis.results.robots.passed).toBe(true);
    expect(analysis.results.robots.value).toMatchObject({ status_code: 404, rule: null });
    expect(analysis.results.robots_txt_valid.passed).toBeNull();
  });

  it('cannot tell when robots.txt answers 500', async () => {
    const started = await siteWithRobots(respond('oops', 'text/plain', { status: 500 }));
    const analysis = await analyze(started.url('/shop/coffee'));

    expect(analysis.results.robots.passed).toBeNull();
    expect(analysis.results.robots.reason).toContain('500');
    expect(analysis.results.robots_txt_valid.passed).toBeNull();
  });

  it('lists every invalid line', async () => {
    const robots = [
      'Disallow: /early', // 1: a rule before any user-agent
      'User-agent: *', // 2
      'Dissallow: /tmp/', // 3: misspelled directive
      'Allow: shop', // 4: a path must start with / or *
      'Crawl-delay: soon', // 5: not a number
      'Sitemap: /sitemap.xml', // 6: not an absolute URL
      'Foo: bar', // 7: unknown directive
      'Disallow: /private/', // 8: fine
    ].join('\n');
    const started = await siteWithRobots(robotsTxt(robots));
    const analysis = await analyze(started.url('/shop/coffee'));
    const valid = analysis.results.robots_txt_valid;

    expect(valid.passed).toBe(false);
    const problems = (valid.errors as { invalid_lines: { line: number; text: string; message: string }[] }).invalid_lines;
    expect(problems.map(({ line, text }) => ({ line, text }))).toEqual([
      { line: 1, text: 'Disallow: /early' },
      { line: 3, text: 'Dissallow: /tmp/' },
      { line: 4, text: 'Allow: shop' },
      { line: 5, text: 'Crawl-delay: soon' },
      { line: 6, text: 'Sitemap: /sitemap.xml' },
      { line: 7, text: 'Foo: bar' },
    ]);
    for (const problem of problems) expect(problem.message).not.toBe('');
    expect(valid.value).toMatchObject({ problems: 6 });
    // The valid rules still apply: /shop/coffee is allowed.
    expect(analysis.results.robots.passed).toBe(true);
  });

  it('judges the final URL when the page was reached through a redirect', async () => {
    const started = await siteWithRobots(robotsTxt('User-agent: *\nDisallow: /private/\n'), { '/old': redirect('/private/page') });
    const analysis = await analyze(started.url('/old'));

    expect(analysis.results.robots.passed).toBe(false);
    expect(analysis.results.robots.value).toMatchObject({ url: started.url('/private/page'), rule: { pattern: '/private/' } });
  });

  it('cannot tell when robots.txt does not answer before the deadline', async () => {
    const hanging: Handler = (_request, response) => {
      const timer = setTimeout(() => response.end(), 5000);
      response.on('close', () => clearTimeout(timer));
    };
    const started = await siteWithRobots(hanging);
    const analysis = await analyzer({ timeoutMs: 1000 })(started.url('/shop/coffee'));

    // A fetch problem is never scored as an SEO failure.
    expect(analysis.results.robots.passed).toBeNull();
    expect(analysis.results.robots.reason).toContain('could not be fetched');
    expect(analysis.results.robots_txt_valid.passed).toBeNull();
    expect(analysis.results.sitemap.passed).toBeNull();
    expect(analysis.results.http_status.passed).toBe(true);
  });
});
