import { describe, expect, it } from 'vitest';
import { compilePattern, crawlScope, parsePatterns, parseStripParams, pathAndQuery, startUrlOutOfScope } from './crawl-scope.ts';
import { crawlUrl, paramStripper } from './crawl-url.ts';

const matches = (pattern: string, target: string) => compilePattern(pattern)(target);

describe('include and exclude patterns', () => {
  it('are taken from one string or a list, newline- or comma-separated, in order', () => {
    expect(parsePatterns('include', '/blog/*,/shop/**\r\n/about\n\n')).toEqual({ ok: true, value: ['/blog/*', '/shop/**', '/about'] });
    expect(parsePatterns('include', ['/a', '/b,/c'])).toEqual({ ok: true, value: ['/a', '/b', '/c'] });
    expect(parsePatterns('exclude', undefined)).toEqual({ ok: true, value: [] });
    expect(parsePatterns('exclude', '')).toEqual({ ok: true, value: [] });
  });

  it('refuse more than 20, a long one, white space, and one not starting with / or *', () => {
    const many = Array.from({ length: 21 }, (_, index) => `/p${index}`);
    expect(parsePatterns('include', many)).toEqual({ ok: false, message: 'The include may have at most 20 patterns; it has 21.' });
    expect(parsePatterns('include', many.slice(0, 20)).ok).toBe(true);
    const long = parsePatterns('exclude', `/${'x'.repeat(500)}`);
    expect(long.ok).toBe(false);
    expect(!long.ok && long.message).toMatch(/^Each exclude pattern must be at most 500 characters; "\/x+\.\.\." has 501\.$/);
    expect(parsePatterns('exclude', `/${'x'.repeat(499)}`).ok).toBe(true);
    expect(parsePatterns('include', ['/a b'])).toEqual({ ok: false, message: 'The include pattern "/a b" must not contain white space.' });
    expect(parsePatterns('include', '/a\tb')).toMatchObject({ ok: false });
    expect(parsePatterns('exclude', 'blog/*')).toEqual({
      ok: false,
      message: 'The exclude pattern "blog/*" must start with / or * (it matches the URL\'s path and query).',
    });
    expect(parsePatterns('exclude', '*.pdf').ok).toBe(true);
  });

  it('match the whole path and query: * within a segment, ** across, everything else literally', () => {
    expect(matches('/blog/*', '/blog/')).toBe(true);
    expect(matches('/blog/*', '/blog/post-1')).toBe(true);
    expect(matches('/blog/*', '/blog/2024/post')).toBe(false);
    expect(matches('/blog/**', '/blog/2024/post')).toBe(true);
    expect(matches('/blog', '/blog/')).toBe(false);
    expect(matches('/blog', '/blog')).toBe(true);
    expect(matches('*.pdf', '/files/a.pdf')).toBe(false);
    expect(matches('**.pdf', '/files/a.pdf')).toBe(true);
    expect(matches('/shop/*?color=red', '/shop/b?color=red')).toBe(true);
    expect(matches('/shop/*', '/shop/b?color=red')).toBe(true);
    // `?`, `.` and `[` are themselves, not regular-expression or glob syntax.
    expect(matches('/a?b', '/aXb')).toBe(false);
    expect(matches('/a.b', '/aXb')).toBe(false);
    expect(matches('/[ab]', '/a')).toBe(false);
    expect(matches('/[ab]', '/[ab]')).toBe(true);
    // Case-sensitive; a query's slash is a slash.
    expect(matches('/Blog/*', '/blog/x')).toBe(false);
    expect(matches('/go?to=*', '/go?to=/x')).toBe(false);
    expect(matches('/go?to=**', '/go?to=/x')).toBe(true);
    // Stars match the empty run; three in a row are **.
    expect(matches('/a*b', '/ab')).toBe(true);
    expect(matches('/a***b', '/a/x/b')).toBe(true);
    // Every path starts with /, which a leading * does not match: only a leading ** reaches past it.
    expect(matches('*', '/')).toBe(false);
    expect(matches('*/', '/')).toBe(true);
    expect(matches('**', '/a/b')).toBe(true);
  });

  it('match where a greedy first choice would not (** then * after a repeated literal)', () => {
    expect(matches('**a*b', '/xa/ab')).toBe(true);
    expect(matches('**a*b', '/xa/a/b')).toBe(false);
    expect(matches('/*/x/**/y', '/p/x/q/x/r/y')).toBe(true);
  });

  it('agree with a reference regular expression on many short cases', () => {
    const alphabet = ['/', 'a', 'b', '*', '**'];
    const targets = ['/', '/a', '/b', '/ab', '/a/b', '/ba/', '/aab', '/a/ab/b', '//a', '/b/b/a'];
    const reference = (pattern: string) =>
      new RegExp(`^${pattern.split(/(\*\*|\*)/).map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('')}$`);
    let checked = 0;
    const build = (prefix: string, depth: number) => {
      if (depth === 0) return;
      for (const piece of alphabet) {
        const pattern = prefix + piece;
        if (!pattern.includes('***')) {
          for (const target of targets) expect(matches(pattern, target), `${pattern} ~ ${target}`).toBe(reference(pattern).test(target));
          checked++;
        }
        build(pattern, depth - 1);
      }
    };
    build('/', 4);
    build('*', 3);
    expect(checked).toBeGreaterThan(500);
  });

  it('match a hostile pattern against a long URL in linear time', () => {
    // Its start and end fit, and every state stays alive to the last character: the whole URL is run.
    const hostile = compilePattern(`/${'*a'.repeat(240)}*b`);
    const almost = `/${'a'.repeat(239)}${'c'.repeat(1800)}b`;
    const started = performance.now();
    for (let round = 0; round < 20; round++) expect(hostile(almost)).toBe(false);
    expect(hostile(`/${'a'.repeat(240)}${'c'.repeat(1800)}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    // A backtracking expression of [^/]* would try (n choose 10) splits of these before failing.
    const tenStars = compilePattern('/*a*a*a*a*a*a*a*a*a*a*b');
    expect(tenStars(`/${'a'.repeat(5000)}`)).toBe(false);
    expect(tenStars(`/${'a'.repeat(5000)}/b`)).toBe(false);
    expect(tenStars(`/${'a'.repeat(9)}${'c'.repeat(5000)}b`)).toBe(false);
    expect(tenStars(`/${'a'.repeat(5000)}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    // Past 32 literals the states span several words: the carry between them counts.
    const long = `/${'ab'.repeat(40)}*`;
    expect(compilePattern(long)(`/${'ab'.repeat(40)}tail`)).toBe(true);
    expect(compilePattern(long)(`/${'ab'.repeat(39)}a`)).toBe(false);
    expect(compilePattern(`**${'x'.repeat(70)}`)(`/q/${'x'.repeat(70)}`)).toBe(true);
  });

  it('make a scope: an include (when any) and no exclude', () => {
    const scope = crawlScope(['/shop/**', '/'], ['/shop/admin/**', '**?sort=*']);
    expect(scope.allows('https://example.com/')).toBe(true);
    expect(scope.allows('https://example.com/shop/b?color=red')).toBe(true);
    expect(scope.allows('https://example.com/blog/')).toBe(false);
    expect(scope.allows('https://example.com/shop/admin/x')).toBe(false);
    expect(scope.allows('https://example.com/shop/b?sort=price')).toBe(false);
    expect(crawlScope([], ['/private/**']).allows('https://example.com/any')).toBe(true);
    expect(crawlScope().allows('https://example.com/any')).toBe(true);
    expect(pathAndQuery('https://example.com:8080/a/b?c=d')).toBe('/a/b?c=d');
  });

  it('says why a start URL would not be fetched, naming the field', () => {
    expect(startUrlOutOfScope('https://example.com/', ['/shop/**'], [])).toEqual({
      field: 'include',
      message: 'The start URL ("/") matches none of the include patterns: the crawl must fetch it.',
    });
    expect(startUrlOutOfScope('https://example.com/shop/', ['/shop/**'], ['/shop/'])).toEqual({
      field: 'exclude',
      message: 'The start URL ("/shop/") matches the exclude pattern "/shop/": the crawl must fetch it.',
    });
    expect(startUrlOutOfScope('https://example.com/shop/', ['/shop/**'], ['/shop/x'])).toBeNull();
  });
});

describe('strip_params', () => {
  it('are names separated by commas, newlines or spaces, a trailing * a prefix', () => {
    expect(parseStripParams('utm_*, gclid\nfbclid sessionid')).toEqual({ ok: true, value: ['utm_*', 'gclid', 'fbclid', 'sessionid'] });
    expect(parseStripParams(['filter[]', 'a.b~c-d'])).toEqual({ ok: true, value: ['filter[]', 'a.b~c-d'] });
  });

  it('refuse more than 50, a long name, other characters, and a lone *', () => {
    expect(parseStripParams(Array.from({ length: 51 }, (_, index) => `p${index}`))).toEqual({ ok: false, message: 'The strip_params may have at most 50 names; it has 51.' });
    expect(parseStripParams('x'.repeat(100)).ok).toBe(true);
    expect(parseStripParams(`${'x'.repeat(100)}*`).ok).toBe(true);
    expect(parseStripParams('x'.repeat(101))).toMatchObject({ ok: false, message: expect.stringMatching(/^Each strip_params name must be at most 100 characters/) });
    for (const bad of ['*', 'a*b', 'ut=m', 'é', 'a%20']) {
      expect(parseStripParams(bad), bad).toEqual({
        ok: false,
        message: `The strip_params name ${JSON.stringify(bad)} must be letters, digits and . _ ~ - [ ] only, optionally ending in * (a prefix).`,
      });
    }
  });

  it('are removed from a URL, the others keeping their order, an empty query going with its ?', () => {
    const strip = paramStripper(['utm_*', 'gclid', 'filter[]'])!;
    expect(strip('https://example.com/shop/b?utm_source=x&color=red')).toBe('https://example.com/shop/b?color=red');
    expect(strip('https://example.com/shop/c?utm_source=x')).toBe('https://example.com/shop/c');
    expect(strip('https://example.com/c?b=2&gclid=9&a=1&utm_medium=m')).toBe('https://example.com/c?b=2&a=1');
    expect(strip('https://example.com/c?utm%5Fsource=x&filter[]=1&z')).toBe('https://example.com/c?z');
    // Case-sensitive, and a name is the whole name: gclid2 and UTM_X stay.
    expect(strip('https://example.com/c?gclid2=1&UTM_X=2')).toBe('https://example.com/c?gclid2=1&UTM_X=2');
    expect(strip('https://example.com/c?a=1&&b=2')).toBe('https://example.com/c?a=1&&b=2');
    expect(strip('https://example.com/c')).toBe('https://example.com/c');
    expect(paramStripper([])).toBeNull();
  });

  it('make /c?utm_source=x and /c one URL of the crawl', () => {
    const strip = paramStripper(['utm_source']);
    expect(crawlUrl('https://example.com/c?utm_source=x#top', 'example.com', strip)).toBe('https://example.com/c');
    expect(crawlUrl('https://example.com/c', 'example.com', strip)).toBe('https://example.com/c');
    expect(crawlUrl('https://other.example/c?utm_source=x', 'example.com', strip)).toBeNull();
  });
});
