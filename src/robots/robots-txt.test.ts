import { describe, expect, it } from 'vitest';
import { evaluateRobots, MAX_ROBOTS_GROUPS, MAX_ROBOTS_RULES, parseRobotsTxt } from './robots-txt.ts';
import { AI_USER_AGENTS } from './ai-user-agents.ts';

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

  it(`keeps the first ${MAX_ROBOTS_RULES} rules and says where it stopped, even past 50 problems`, () => {
    const rules = Array.from({ length: MAX_ROBOTS_RULES + 5 }, (_, i) => `Disallow: /r${i}`);
    const text = ['nonsense line here\n'.repeat(60), 'User-agent: *', ...rules].join('\n');
    const robots = parseRobotsTxt(text);
    expect(robots.groups[0].rules).toHaveLength(MAX_ROBOTS_RULES);
    expect(robots.groups[0].rules.at(-1)?.pattern).toBe(`/r${MAX_ROBOTS_RULES - 1}`);
    expect(robots.problems.at(-1)).toEqual({
      line: 63 + MAX_ROBOTS_RULES,
      text: `Disallow: /r${MAX_ROBOTS_RULES}`,
      message: `more than ${MAX_ROBOTS_RULES} allow and disallow rules: this rule and later ones are ignored`,
    });
    expect(robots.problems.filter((problem) => problem.message.startsWith('more than'))).toHaveLength(1);
  });

  it(`keeps the first ${MAX_ROBOTS_GROUPS} groups, their rules only, and says where it stopped`, () => {
    // Product tokens are letters, '_' and '-': bot-a, bot-b, ..., bot-ba, ...
    const agent = (i: number) => `bot-${[...i.toString(26)].map((digit) => String.fromCharCode(97 + parseInt(digit, 26))).join('')}`;
    const groups = Array.from({ length: MAX_ROBOTS_GROUPS + 3 }, (_, i) => `User-agent: ${agent(i)}\nDisallow: /g${i}`);
    const robots = parseRobotsTxt(groups.join('\n'));
    expect(robots.groups).toHaveLength(MAX_ROBOTS_GROUPS);
    expect(robots.groups.flatMap((group) => group.rules)).toHaveLength(MAX_ROBOTS_GROUPS);
    expect(robots.problems).toEqual([
      {
        line: 2 * MAX_ROBOTS_GROUPS + 1,
        text: `User-agent: ${agent(MAX_ROBOTS_GROUPS)}`,
        message: `more than ${MAX_ROBOTS_GROUPS} user-agent groups: this group and later ones are ignored`,
      },
    ]);
    // The rules of a dropped group are neither obeyed nor misread as rules of a kept one.
    expect(evaluateRobots(robots, `https://example.com/g${MAX_ROBOTS_GROUPS}`, [agent(MAX_ROBOTS_GROUPS)]).allowed).toBe(true);
    expect(evaluateRobots(robots, `https://example.com/g${MAX_ROBOTS_GROUPS - 1}`, [agent(MAX_ROBOTS_GROUPS - 1)]).allowed).toBe(false);
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

  it('weighs rules from merged groups as one list: longest first, then Allow, then the first written', () => {
    const text = 'User-agent: a\nDisallow: /page\n\nUser-agent: a\nAllow: /page\nDisallow: /pag\n';
    expect(evaluateRobots(parseRobotsTxt(text), 'https://example.com/page', ['a']).rule).toEqual({ allow: true, pattern: '/page', line: 5 });
    const twice = 'User-agent: a\nDisallow: /p*\n\nUser-agent: a\nDisallow: /*e\n';
    expect(evaluateRobots(parseRobotsTxt(twice), 'https://example.com/page', ['a']).rule).toEqual({ allow: false, pattern: '/p*', line: 2 });
    const longer = 'User-agent: a\nAllow: /p\n\nUser-agent: a\nDisallow: /pa\n';
    expect(evaluateRobots(parseRobotsTxt(longer), 'https://example.com/page', ['a']).allowed).toBe(false);
  });

  it('answers each URL afresh when one parsed file is asked about several URLs and agents', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /a\n\nUser-agent: b\nUser-agent: c\nDisallow: /b\n');
    expect(evaluateRobots(robots, 'https://example.com/a', ['x']).allowed).toBe(false);
    expect(evaluateRobots(robots, 'https://example.com/b', ['x']).allowed).toBe(true);
    expect(evaluateRobots(robots, 'https://example.com/b', ['b']).allowed).toBe(false);
    expect(evaluateRobots(robots, 'https://example.com/b', ['c']).allowed).toBe(false);
    expect(evaluateRobots(robots, 'https://example.com/a', ['c']).allowed).toBe(true);
    expect(evaluateRobots(robots, 'https://example.com/a', ['x']).allowed).toBe(false);
  });

  it('decides a 500 KiB file of 120-wildcard rules for Googlebot and every AI agent in milliseconds', () => {
    const lines = ['User-agent: *'];
    for (let i = 0, bytes = 0; bytes < 500 * 1024; i++) {
      lines.push(`Disallow: /${'*a'.repeat(119)}*${i.toString(36)}z`);
      bytes += lines[lines.length - 1].length + 1;
    }
    const url = `https://example.com/page?q=${'a'.repeat(800)}`;
    const started = performance.now();
    const robots = parseRobotsTxt(lines.join('\n'));
    const verdicts = [evaluateRobots(robots, url, ['googlebot']), ...AI_USER_AGENTS.map((agent) => evaluateRobots(robots, url, [agent.token]))];
    const elapsed = performance.now() - started;
    expect(verdicts.every((verdict) => verdict.allowed && verdict.rule === null)).toBe(true);
    // About 50 ms on an idle core; the backtracking matcher this replaced took 19 s and more. The bound
    // leaves room for a busy machine.
    expect(elapsed).toBeLessThan(3000);
  });
});
