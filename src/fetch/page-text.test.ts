import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { decodeText, decodeTextInPieces } from './charset.ts';
import { PageText } from './page-text.ts';
import { decodeBody } from './decode-page.ts';

describe('PageText', () => {
  const text = new PageText(['ab\ncd', 'ef', '\ngh\n', 'ij']);

  it('slices across pieces as one string would, copying only what crosses', () => {
    const whole = 'ab\ncdef\ngh\nij';
    expect(text.length).toBe(whole.length);
    for (let start = 0; start <= whole.length; start++) {
      for (let end = start; end <= whole.length; end++) expect(text.slice(start, end)).toBe(whole.slice(start, end));
    }
    expect(text.slice(3)).toBe(whole.slice(3));
    expect(text.slice(-5, 99)).toBe(whole);
    expect(text.toString()).toBe(whole);
  });

  it('finds the line breaks of every piece at their offsets in the whole', () => {
    expect(text.lineBreaks()).toEqual([3, 8, 11]);
    expect(PageText.of('').lineBreaks()).toEqual([]);
    expect(PageText.of('').slice(0, 5)).toBe('');
  });

  it('decodes a body in pieces under V8\'s 128 KiB large-string size', () => {
    const body = Buffer.from('<p>caf\u00e9 \u{1F600} \u65e5\u672c</p>'.repeat(20_000));
    const page = decodeBody(body, 'utf-8');
    expect(page.pieces.length).toBeGreaterThan(5);
    for (const piece of page.pieces) expect(piece.length * 2).toBeLessThan(128 * 1024);
    expect(page.toString()).toBe(body.toString('utf8'));
  });
});

describe('decodeTextInPieces', () => {
  // Every cut point of a few bytes: a multi-byte character split between two pieces comes out whole.
  const cases: [string, Buffer][] = [
    ['utf-8', Buffer.from('a\u00e9b\u20acc\u{1F600}d\u65e5')],
    ['utf-8', Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('bom \u00e9')])],
    ['utf-8', Buffer.from([0x61, 0xe2, 0x82, 0x62, 0xff, 0x63, 0xf0, 0x9f, 0x98])], // broken sequences
    ['windows-1252', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x80, 0x9f])],
    ['shift_jis', iconv.encode('\u65e5\u672c\u8a9e\u306e\u30da\u30fc\u30b8', 'shift_jis')],
    ['gbk', iconv.encode('\u4e2d\u6587\u7f51\u9875', 'gb18030')],
    ['utf-16le', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('h\u00e9\u{1F600}', 'utf-16le')])],
    ['iso-2022-jp', Buffer.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42, 0x61])],
    ['x-user-defined', Buffer.from([0x61, 0x80, 0xff])],
  ];

  it.each(cases)('gives decodeText\'s text for %s, whatever the piece size', (encoding, bytes) => {
    const whole = decodeText(bytes, encoding);
    for (let size = 1; size <= bytes.length; size++) {
      const pieces = decodeTextInPieces(bytes, encoding, size);
      expect(pieces.join('')).toBe(whole);
      expect(pieces).not.toContain('');
    }
  });

  it('gives no pieces for an empty body', () => {
    expect(decodeTextInPieces(Buffer.alloc(0), 'utf-8', 10)).toEqual([]);
    expect(decodeTextInPieces(Buffer.alloc(0), 'windows-1252', 10)).toEqual([]);
  });
});
