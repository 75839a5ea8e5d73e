import { describe, expect, it } from 'vitest';
import { parseHsts } from './hsts.ts';

describe('parseHsts', () => {
  it('reads directives case-insensitively, with quoted values and the flags', () => {
    expect(parseHsts('Max-Age="63072000" ; INCLUDESUBDOMAINS; preload')).toEqual({ maxAge: 63_072_000, includeSubDomains: true, preload: true });
    expect(parseHsts('includeSubDomains')).toBe('no max-age directive');
  });

  it('rejects repeated directives and non-numeric max-age (RFC 6797)', () => {
    expect(parseHsts('max-age=1; max-age=2')).toBe('directive "max-age" appears twice');
    expect(parseHsts('max-age=1y')).toBe('max-age "1y" is not a number');
  });

  it('reads only the first of repeated headers', () => {
    expect(parseHsts('max-age=600, max-age=31536000')).toEqual({ maxAge: 600, includeSubDomains: false, preload: false });
  });
});
