import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText, plainTextEncoding, sniffCharset } from './charset.ts';

const BOM_UTF8 = Buffer.from([0xef, 0xbb, 0xbf]);
const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('sniffCharset', () => {
  it('lets a byte order mark win over the header and the meta tag', () => {
    const body = Buffer.concat([BOM_UTF8, latin1('<meta charset="gbk">')]);
    expect(sniffCharset(body, 'shift_jis')).toEqual({ charset: 'utf-8', source: 'bom', metaCharsetInFirst1024Bytes: true });
    expect(sniffCharset(Buffer.from([0xff, 0xfe, 0x3c, 0x00]), null).charset).toBe('utf-16le');
    expect(sniffCharset(Buffer.from([0xfe, 0xff, 0x00, 0x3c]), null).charset).toBe('utf-16be');
  });

  it('uses the header charset over the meta tag, and still reports the meta declaration', () => {
    expect(sniffCharset(latin1('<meta charset="gbk">'), 'ISO-8859-1')).toEqual({
      charset: 'windows-1252',
      source: 'header',
      metaCharsetInFirst1024Bytes: true,
    });
  });

  it('falls through an unknown header label to the meta tag', () => {
    expect(sniffCharset(latin1('<meta charset="euc-jp">'), 'x-unknown')).toEqual({
      charset: 'euc-jp',
      source: 'meta',
      metaCharsetInFirst1024Bytes: true,
    });
  });

  it('guesses UTF-8 for valid UTF-8 and windows-1252 otherwise when nothing is declared', () => {
    expect(sniffCharset(Buffer.from('<p>café</p>', 'utf8'), null)).toEqual({
      charset: 'utf-8',
      source: 'default',
      metaCharsetInFirst1024Bytes: false,
    });
    expect(sniffCharset(latin1('<p>café</p>'), null)).toEqual({
      charset: 'windows-1252',
      source: 'default',
      metaCharsetInFirst1024Bytes: false,
    });
  });
});

describe('plainTextEncoding', () => {
  it('uses the BOM, then the header, then UTF-8, and never a meta tag', () => {
    expect(plainTextEncoding(Buffer.concat([BOM_UTF8, latin1('x')]), 'latin1')).toBe('utf-8');
    expect(plainTextEncoding(latin1('<meta charset="gbk">'), 'latin1')).toBe('windows-1252');
    expect(plainTextEncoding(latin1('<meta charset="gbk">'), null)).toBe('utf-8');
  });
});

describe('decodeText', () => {
  it('decodes legacy encodings from real bytes', () => {
    expect(decodeText(iconv.encode('café – “quoted”', 'windows-1252'), 'windows-1252')).toBe('café – “quoted”');
    expect(decodeText(iconv.encode('日本語のページ', 'shift_jis'), 'shift_jis')).toBe('日本語のページ');
    expect(decodeText(iconv.encode('中文网页标题', 'gb2312'), 'gbk')).toBe('中文网页标题');
    expect(decodeText(iconv.encode('한국어', 'euc-kr'), 'euc-kr')).toBe('한국어');
    expect(decodeText(iconv.encode('Привет', 'koi8-r'), 'koi8-r')).toBe('Привет');
  });

  it('decodes iso-2022-jp, which iconv-lite lacks', () => {
    const bytes = Buffer.from('1b2442467c4b5c386c1b2842', 'hex'); // 日本語
    expect(decodeText(bytes, 'iso-2022-jp')).toBe('日本語');
  });

  it('drops a UTF-8 or UTF-16 byte order mark from the text', () => {
    expect(decodeText(Buffer.concat([BOM_UTF8, Buffer.from('é')]), 'utf-8')).toBe('é');
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41, 0x00]), 'utf-16le')).toBe('A');
  });

  it('decodes the replacement encoding to a single replacement character', () => {
    expect(decodeText(latin1('anything'), 'replacement')).toBe('\uFFFD');
  });
});
