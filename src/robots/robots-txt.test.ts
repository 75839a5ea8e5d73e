import { describe, expect, it } from 'vitest';
import { evaluateRobots, parseRobotsTxt } from './robots-txt.ts';

const allowed = (robots: string, url: string, agents: readonly string[] = ['googlebot']) =>
  evaluateRobots(parseRobotsTxt(robots), url, agents).allowed;

describe('parseRobotsTxt', () => {
  it('groups consecutive user-agent lines and gives the rules to the last group started', () => {
    const robots = parseRobotsTxt('User-agent: A\nUser-agent: B\nDisallow: /x\nUser-agent: C\nAllow: /y\n');
    expect(robots.groups).toEqual([
      { userAgents: ['a', 'b'], rules: [{ allow: false, pattern: '/x', line: 3 }] },
      { userAgents: ['c'], rules: [{ allow: true, pattern: '/y', line: 5 }] },
    ]);
  });

  it('reads the product token of a user-agent value, lower-cased', () => {
    const robots = parseRobotsTxt('User-agent: Googlebot/2.1 (+http://www.google.com/bot.html)\nDisallow: /\n');
    expect(robots.groups[0].userAgents).toEqual(['googlebot']);
  });

  it('tolerates a BOM, CRLF and CR line ends, comments and blank lines', () => {
    const robots = parseRobotsTxt('\uFEFFUser-agent: *  # everyone\r\n\r\n# comment\rDisallow: /private # secret\r\n');
    expect(robots.groups).toEqual([{ userAgents: ['*'], rules: [{ allow: false, pattern: '/private', line: 4 }] }]);
    expect(robots.problems).toEqual([]);
  });

  it('collects valid sitemaps and accepts the other known directives', () => {
    const robots = parseRobotsTxt(
      'Sitemap: https://example.com/sitemap.xml\nUser-agent: *\nCrawl-delay: 2.5\nHost: example.com\nClean-param: ref /\nContent-Signal: search=yes\n',
    );
    expect(robots.sitemaps).toEqual(['https://example.com/sitemap.xml']);
    expect(robots.problems).toEqual([]);
  });

  it('reports each kind of invalid line with its number', () => {
    const text = [
      'Disallow: /early', // 1: rule before any user-agent
      'User-agent: *',
      'Dissalow: /typo', // 3: unknown directive (Googlebot still obeys it)
      'Noodle: 1', // 4: unknown
      'just some words here', // 5: no colon
      'Disallow: private', // 6: must start with / or *
      'Disallow: /a$b', // 7: $ not at the end
      'Sitemap: /sitemap.xml', // 8: not absolute
      'Crawl-delay: soon', // 9: not a number
    ].join('\n');
    const { problems } = parseRobotsTxt(text);
    expect(problems.map((problem) => problem.line)).toEqual([1, 3, 4, 5, 6, 7, 8, 9]);
    expect(problems[0].message).toMatch(/before the first user-agent/);
    expect(problems[1].message).toMatch(/unknown directive 'Dissalow'.*disallow/);
    expect(problems[3]).toMatchObject({ text: 'just some words here', message: expect.stringMatching(/missing ':'/) });
    expect(problems[4].message).toMatch(/start with '\/' or '\*'/);
    expect(problems[5].message).toMatch(/'\$'/);
    expect(problems[6].message).toMatch(/absolute/);
    expect(problems[7].message).toMatch(/number/);
  });

  it('caps the problems at 50', () => {
    expect(parseRobotsTxt('nonsense line here\n'.repeat(80)).problems).toHaveLength(50);
  });
});

describe('evaluateRobots', () => {
  it('uses the googlebot group when there is one, ignoring *', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private\n';
    const verdict = evaluateRobots(parseRobotsTxt(text), 'https://example.com/page', ['googlebot']);
    expect(verdict).toEqual({ allowed: true, group: 'googlebot', rule: null });
    expect(allowed(text, 'https://example.com/private/x')).toBe(false);
  });

  it('falls back to the * group when no group names the crawler', () => {
    const text = 'User-agent: bingbot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin\n';
    const verdict = evaluateRobots(parseRobotsTxt(text), 'https://example.com/admin/users', ['googlebot']);
    expect(verdict).toEqual({ allowed: false, group: '*', rule: { allow: false, pattern: '/admin', line: 5 } });
    expect(allowed(text, 'https://example.com/blog')).toBe(true);
  });

  it('allows everything when no group applies', () => {
    expect(evaluateRobots(parseRobotsTxt('User-agent: bingbot\nDisallow: /\n'), 'https://example.com/', ['googlebot'])).toEqual({
      allowed: true,
      group: null,
      rule: null,
    });
  });

  it('matches user agents case-insensitively and merges groups that name the same agent', () => {
    const text = 'User-agent: GOOGLEBOT\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: googlebot\nDisallow: /c\n';
    expect(allowed(text, 'https://example.com/a')).toBe(false);
    expect(allowed(text, 'https://example.com/c')).toBe(false);
    expect(allowed(text, 'https://example.com/b')).toBe(true);
  });

  it('lets the longest matching pattern win, whichever comes first', () => {
    const text = 'User-agent: *\nAllow: /shop/public\nDisallow: /shop\n';
    expect(allowed(text, 'https://example.com/shop/cart')).toBe(false);
    expect(allowed(text, 'https://example.com/shop/public/item')).toBe(true);
    const reversed = 'User-agent: *\nDisallow: /folder/page\nAllow: /folder\n';
    expect(allowed(reversed, 'https://example.com/folder/page')).toBe(false);
  });

  it('lets Allow win a tie between patterns of equal length', () => {
    const text = 'User-agent: *\nDisallow: /page\nAllow: /page\n';
    const verdict = evaluateRobots(parseRobotsTxt(text), 'https://example.com/page', ['googlebot']);
    expect(verdict.allowed).toBe(true);
    expect(verdict.rule).toEqual({ allow: true, pattern: '/page', line: 3 });
  });

  it('supports * wildcards and the $ end anchor', () => {
    const text = 'User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?sessionid=\n';
    expect(allowed(text, 'https://example.com/docs/file.pdf')).toBe(false);
    expect(allowed(text, 'https://example.com/docs/file.pdf?download=1')).toBe(true);
    expect(allowed(text, 'https://example.com/docs/file.pdf.html')).toBe(true);
    expect(allowed(text, 'https://example.com/list?sessionid=42')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /$\n', 'https://example.com/')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /$\n', 'https://example.com/about')).toBe(true);
  });

  it('matches the query string as part of the path', () => {
    expect(allowed('User-agent: *\nDisallow: /search?q=\n', 'https://example.com/search?q=shoes')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /search?q=\n', 'https://example.com/search')).toBe(true);
  });

  it('compares percent-encoded and literal characters alike', () => {
    expect(allowed('User-agent: *\nDisallow: /café\n', 'https://example.com/caf%C3%A9/menu')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /caf%c3%a9\n', 'https://example.com/café')).toBe(false);
    // %62 is an unreserved "b": the same path either way.
    expect(allowed('User-agent: *\nDisallow: /%62az\n', 'https://example.com/baz')).toBe(false);
    // %2F is an encoded slash, which is not the same as "/".
    expect(allowed('User-agent: *\nDisallow: /a%2Fb\n', 'https://example.com/a/b')).toBe(true);
  });

  it('ignores an empty Disallow and always allows /robots.txt', () => {
    expect(allowed('User-agent: *\nDisallow:\n', 'https://example.com/anything')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /\n', 'https://example.com/robots.txt')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /\n', 'https://example.com/index.html')).toBe(false);
  });

  it('obeys the misspellings and missing colons Googlebot obeys', () => {
    expect(allowed('User-agent: *\nDisalow: /x\n', 'https://example.com/x')).toBe(false);
    expect(allowed('User-agent *\nDisallow /x\n', 'https://example.com/x')).toBe(false);
  });

  it('stays fast on patterns with many wildcards', () => {
    const pattern = `/${'*a'.repeat(40)}b`;
    const verdict = evaluateRobots(parseRobotsTxt(`User-agent: *\nDisallow: ${pattern}\n`), `https://example.com/${'a'.repeat(5000)}`, ['googlebot']);
    expect(verdict.allowed).toBe(true);
  });
});
