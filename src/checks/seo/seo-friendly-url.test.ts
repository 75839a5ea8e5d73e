import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { seoFriendlyUrlCheck } from './seo-friendly-url.ts';

const run = (finalUrl: string) => seoFriendlyUrlCheck.run(makeContext({ page: { finalUrl } }));

describe('seo_friendly_url', () => {
  it('passes a short hyphenated path and reports the query without failing on it', () => {
    expect(run('https://example.com/blog/rye-bread?utm_source=news')).toEqual({
      passed: true,
      value: { url: 'https://example.com/blog/rye-bread?utm_source=news', path: '/blog/rye-bread', length: 50, query: '?utm_source=news' },
      errors: null,
    });
  });

  it('fails underscores, also percent-encoded ones', () => {
    expect(run('https://example.com/rye_bread')).toMatchObject({ passed: false, errors: { underscores: ['rye_bread'] } });
    expect(run('https://example.com/rye%5Fbread').passed).toBe(false);
  });

  it('fails spaces and double slashes in the path', () => {
    expect(run('https://example.com/rye%20bread')).toMatchObject({ passed: false, errors: { spaces: ['rye bread'] } });
    expect(run('https://example.com/blog//rye')).toMatchObject({ passed: false, errors: { double_slash: ['/blog//rye'] } });
  });

  it('fails a URL over the length limit, counting decoded characters', () => {
    const long = `https://example.com/${'a'.repeat(100)}`;
    expect(run(long)).toMatchObject({ passed: false, errors: { too_long: [{ length: 120, max: 115 }] } });
    // 90 "é" are 540 characters percent-encoded but 110 as read.
    expect(run(`https://example.com/${'%C3%A9'.repeat(90)}`)).toMatchObject({ passed: true, value: { length: 110 } });
  });
});
