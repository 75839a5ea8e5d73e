import { describe, expect, it } from 'vitest';
import { hasSiteHost, siteHost } from './url.ts';

describe('hasSiteHost', () => {
  it('agrees with siteHost(url) === site, a leading www. dropped once', () => {
    const cases: [string, string][] = [
      ['https://example.com/a', 'example.com'],
      ['https://www.example.com/a', 'example.com'],
      ['https://www.www.example.com/', 'www.example.com'],
      ['https://www.example.com/', 'www.example.com'],
      ['https://wwwexample.com/', 'example.com'],
      ['https://cdn.example.com/', 'example.com'],
      ['https://www.example.com.evil.net/', 'example.com'],
      ['https://x.www.example.com/', 'example.com'],
    ];
    for (const [href, site] of cases) {
      const url = new URL(href);
      expect(hasSiteHost(url, site), `${href} vs ${site}`).toBe(siteHost(url) === site);
    }
    expect(hasSiteHost(new URL('https://www.example.com/'), 'example.com')).toBe(true);
    expect(hasSiteHost(new URL('https://www.example.com/'), 'www.example.com')).toBe(false);
  });
});
