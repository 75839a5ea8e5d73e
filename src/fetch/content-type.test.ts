import { describe, expect, it } from 'vitest';
import { isHtmlMimeType, parseContentType } from './content-type.ts';

describe('parseContentType', () => {
  it.each([
    ['text/html; charset=UTF-8', 'text/html', 'UTF-8'],
    ['Text/HTML;Charset="Shift_JIS"', 'text/html', 'Shift_JIS'],
    ['application/xhtml+xml', 'application/xhtml+xml', null],
    ['text/html; boundary=x; charset=gbk', 'text/html', 'gbk'],
    ['garbage', null, null],
    ['', null, null],
  ])('%s', (header, mimeType, charset) => {
    expect(parseContentType(header)).toEqual({ mimeType, charset });
  });

  it('handles a missing header', () => {
    expect(parseContentType(null)).toEqual({ mimeType: null, charset: null });
  });
});

describe('isHtmlMimeType', () => {
  it('accepts HTML and XHTML only', () => {
    expect(isHtmlMimeType('text/html')).toBe(true);
    expect(isHtmlMimeType('application/xhtml+xml')).toBe(true);
    expect(isHtmlMimeType('application/pdf')).toBe(false);
    expect(isHtmlMimeType('text/plain')).toBe(false);
  });
});
