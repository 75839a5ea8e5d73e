import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QuickUrlReader } from './quick-url.ts';
import { withoutHash } from './url.ts';

const BASES = ['https://www.example.com/dir/page.html?q=1#top', 'http://example.org'];

/** What the URL parser says, as resolveUrl calls it: null when it throws. */
function parsed(raw: string, base: string): { protocol: string; hostname: string } | null {
  try {
    const url = new URL(raw.trim(), base);
    return { protocol: url.protocol, hostname: url.hostname };
  } catch {
    return null;
  }
}

/** The reader's answer: null when it leaves the href to the parser. */
function read(raw: string, base: string): { protocol: string; hostname: string } | null {
  const reader = QuickUrlReader.forBase(base);
  if (reader === null || !reader.read(raw)) return null;
  return { protocol: reader.protocol, hostname: reader.hostname };
}

function expectAgreement(raw: string): void {
  for (const base of BASES) {
    const quick = read(raw, base);
    if (quick !== null) expect({ raw, base, ...quick }).toEqual({ raw, base, ...parsed(raw, base) });
  }
}

describe('QuickUrlReader', () => {
  it('reads the common forms of href without the parser', () => {
    const base = BASES[0];
    expect(read('/about/team', base)).toEqual({ protocol: 'https:', hostname: 'www.example.com' });
    expect(read('  ../up?x=1#f ', base)).toEqual({ protocol: 'https:', hostname: 'www.example.com' });
    expect(read('#section', base)).toEqual({ protocol: 'https:', hostname: 'www.example.com' });
    expect(read('', base)).toEqual({ protocol: 'https:', hostname: 'www.example.com' });
    expect(read('HTTPS://Shop.Example.NET/cart', base)).toEqual({ protocol: 'https:', hostname: 'shop.example.net' });
    expect(read('http://example.org', base)).toEqual({ protocol: 'http:', hostname: 'example.org' });
    expect(read('//cdn.example.com/a.js', base)).toEqual({ protocol: 'https:', hostname: 'cdn.example.com' });
    expect(read('mailto:someone@example.com', base)).toEqual({ protocol: 'mailto:', hostname: '' });
    expect(read('JavaScript:void(0)', base)).toEqual({ protocol: 'javascript:', hostname: '' });
    expect(read('tel:+1-555-0100', base)).toEqual({ protocol: 'tel:', hostname: '' });
  });

  it('leaves anything unusual to the parser', () => {
    const base = BASES[0];
    for (const raw of [
      'https://example.com:8080/',
      'https://user@example.com/',
      'https://127.0.0.1/',
      'https://0x7f.1/',
      'https://foo.123/',
      'https://xn--nxasmq6b.com/',
      'https://ex%41mple.com/',
      'https://exämple.com/',
      'https://example.com./',
      'https://a..b/',
      'https://-a.com/',
      'https://[::1]/',
      'https:///example.com/',
      'https:example.com',
      'https://exa\nmple.com/',
      '\\\\example.com/x',
      '/\\example.com/x',
      '/\texample.com/x',
      'java\nscript:alert(1)',
      'foo://host/',
      'foo:/path',
      'file:///etc/passwd',
      'ftp://example.com/',
      '\u0001/x',
    ]) {
      expect(read(raw, base), raw).toBeNull();
    }
  });

  it('does not read against a base that is not http(s)', () => {
    expect(QuickUrlReader.forBase('about:blank')).toBeNull();
    expect(QuickUrlReader.forBase('not a url')).toBeNull();
    expect(QuickUrlReader.forBase('file:///tmp/page.html')).toBeNull();
  });

  it('agrees with the URL parser on every href it reads', () => {
    const piece = fc.constantFrom(
      'http', 'https', 'HTTP', 'mailto', 'javascript', 'tel', 'ftp', 'file', 'ws', 'x', 'c', ':', '//', '/', '\\', '?', '#',
      '.', '..', '-', 'xn--', '0x', '1', '12', 'www', 'example', 'com', '@', '%41', '[', ']', ' ', '\t', '\n', '\r',
      '\u0000', '\u00a0', '\ufeff', 'é', 'K', '\u212a', '_', '+',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => expectAgreement(pieces.join(''))),
      { numRuns: 20_000 },
    );
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 30 }), expectAgreement), { numRuns: 5_000 });
  });

  it('reads hrefs in a row as it reads each alone (it remembers recent hosts)', () => {
    const host = fc.constantFrom('a.com', 'A.com', 'b.org', 'B.ORG', 'a.co', 'ab.com', 'x.a.com', '', 'a.c0m', '1.2');
    const href = fc.tuple(fc.constantFrom('https://', 'HTTP://', '//', '/'), host, fc.constantFrom('', '/p', '?q', ':8080/')).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(href, { maxLength: 12 }), (hrefs) => {
        const reader = QuickUrlReader.forBase(BASES[0]) as QuickUrlReader;
        for (const raw of hrefs) {
          const alone = read(raw, BASES[0]);
          const inRow = reader.read(raw) ? { protocol: reader.protocol, hostname: reader.hostname } : null;
          expect({ raw, inRow }).toEqual({ raw, inRow: alone });
        }
      }),
      { numRuns: 2000 },
    );
  });

  describe('readParts', () => {
    const BASE = 'https://user@www.example.com:8443/dir/page.html?q=1#top';
    const parts = (raw: string, base = BASE) => {
      const reader = QuickUrlReader.forBase(base) as QuickUrlReader;
      if (!reader.readParts(raw)) return null;
      const { protocol, hostname, pathname, search, hrefWithoutFragment, hrefWithoutHash } = reader;
      return { protocol, hostname, pathname, search, hrefWithoutFragment, hrefWithoutHash };
    };
    const fromParser = (raw: string, base = BASE) => {
      const url = new URL(raw.trim(), base);
      const { protocol, hostname, pathname, search } = url;
      return { protocol, hostname, pathname, search, hrefWithoutFragment: url.href.split('#')[0], hrefWithoutHash: withoutHash(url) };
    };

    it('reads absolute, root and relative http(s) hrefs without the parser', () => {
      for (const raw of ['https://Shop.Example.net', 'http://a.example/x/y.png?w=1&h=2#f', '/img/a.jpg', 'img/b.png?', 'c.js#', '//cdn.example/d.css', ' /e?x=`{}` ']) {
        expect(parts(raw), raw).toEqual(fromParser(raw));
      }
    });

    it('leaves dot segments, escapes, other schemes and the base itself to the parser', () => {
      for (const raw of ['/a/../b', './c', '/d/.', '/e/%2e/f', '/g h', '/i"j', "/k?l'm", '/n\\o', '/p<q', '/é', '?q', '#f', '', 'mailto:a@b.c', 'https://a.com:81/']) {
        expect(parts(raw), raw).toBeNull();
      }
    });

    it('agrees with the URL parser on every href it reads', () => {
      const piece = fc.constantFrom(
        'https://', 'HTTP://', '//', '/', 'a.com', 'x', '.', '..', '%2e', '%2E', '%41', '%', '?', '#', '=', '&', "'", '"', '`', '{', '}',
        '|', '^', '[', ']', '@', ':', ';', '~', '!', '\\', ' ', '\t', '\n', '\u0001', 'é', '\u00a0', 'mailto:', 'p.png',
      );
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 10 }), fc.constantFrom(BASE, 'http://example.org', 'https://a.example/x/'), (pieces, base) => {
          const raw = pieces.join('');
          const quick = parts(raw, base);
          if (quick !== null) expect({ raw, ...quick }).toEqual({ raw, ...fromParser(raw, base) });
        }),
        { numRuns: 30_000 },
      );
    });
  });
});
