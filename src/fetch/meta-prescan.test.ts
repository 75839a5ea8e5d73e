import { describe, expect, it } from 'vitest';
import { encodingFromMetaContent, prescanForEncoding } from './meta-prescan.ts';

const scan = (html: string) => prescanForEncoding(Buffer.from(html, 'latin1'));

describe('prescanForEncoding', () => {
  it('reads <meta charset> in its usual spellings', () => {
    expect(scan('<!doctype html><html><head><meta charset="Shift_JIS">')).toBe('shift_jis');
    expect(scan("<META CHARSET='gb2312'>")).toBe('gbk');
    expect(scan('<meta charset=iso-8859-1>')).toBe('windows-1252');
    expect(scan('<meta\ncharset = "utf-8" />')).toBe('utf-8');
    expect(scan('<meta/charset=euc-jp>')).toBe('euc-jp');
  });

  it('reads http-equiv=Content-Type with a charset in content, in either attribute order', () => {
    expect(scan('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">')).toBe('windows-1251');
    expect(scan('<meta content="text/html;charset=\'koi8-r\'" http-equiv=content-type>')).toBe('koi8-r');
  });

  it('ignores a content charset without the http-equiv pragma', () => {
    expect(scan('<meta name="description" content="charset=gbk">')).toBeNull();
  });

  it('skips comments and the attributes of other tags', () => {
    expect(scan('<!-- <meta charset="gbk"> --><meta charset="big5">')).toBe('big5');
    expect(scan('<!--><meta charset="euc-kr">')).toBe('euc-kr'); // "<!-->" is a whole comment
    expect(scan('<div title="<meta charset=gbk>"><meta charset="koi8-u">')).toBe('koi8-u');
    expect(scan('<script>var s = "<meta charset=gbk>";</script>')).toBe('gbk'); // the prescan does not know <script>
  });

  it('takes the first declaration with a known label', () => {
    expect(scan('<meta charset="no-such-encoding"><meta charset="euc-jp">')).toBe('euc-jp');
    expect(scan('<meta charset="windows-1250"><meta charset="euc-jp">')).toBe('windows-1250');
  });

  it('turns UTF-16 into UTF-8 and x-user-defined into windows-1252, as browsers do', () => {
    expect(scan('<meta charset="utf-16">')).toBe('utf-8');
    expect(scan('<meta charset="x-user-defined">')).toBe('windows-1252');
  });

  it('only looks at the first 1024 bytes', () => {
    expect(scan(`${' '.repeat(1010)}<meta charset="gbk">`)).toBeNull();
    expect(scan(`${' '.repeat(1030)}<meta charset="gbk">`)).toBeNull();
    expect(scan(`${' '.repeat(990)}<meta charset="gbk">`)).toBe('gbk');
  });

  it('finds nothing in a page without a declaration', () => {
    expect(scan('<html><head><title>x</title></head></html>')).toBeNull();
    expect(scan('')).toBeNull();
  });
});

describe('encodingFromMetaContent', () => {
  it.each([
    ['text/html; charset=utf-8', 'utf-8'],
    ['text/html;charset="shift_jis"', 'shift_jis'],
    ['text/html; CHARSET = latin1 ; foo', 'windows-1252'],
    ['charsetx; charset=gbk', 'gbk'],
    ['text/html', null],
    ['text/html; charset="unterminated', null],
    ['text/html; charset=', null],
    ['text/html; charset=bogus', null],
  ])('%s -> %s', (content, expected) => {
    expect(encodingFromMetaContent(content)).toBe(expected);
  });
});
