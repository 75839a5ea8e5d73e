import { describe, expect, it } from 'vitest';
import { hostnameHasSite, siteHost, siteHostname } from './url.ts';

describe('hostnameHasSite', () => {
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
      expect(hostnameHasSite(url.hostname, site), `${href} vs ${site}`).toBe(siteHost(url) === site);
    }
    expect(hostnameHasSite(new URL('https://www.example.com/').hostname, 'example.com')).toBe(true);
    expect(hostnameHasSite(new URL('https://www.example.com/').hostname, 'www.example.com')).toBe(false);
  });
});

describe('siteHostname and hostnameHasSite', () => {
  it('drop one leading www. as siteHost does', () => {
    for (const href of ['https://www.example.com/', 'https://example.com/', 'https://www.www.a.org/', 'https://wwwx.net/']) {
      const url = new URL(href);
      expect(siteHostname(url.hostname)).toBe(url.hostname.replace(/^www\./, ''));
      expect(hostnameHasSite(url.hostname, siteHost(url))).toBe(true);
    }
    expect(hostnameHasSite('www.example.com', 'www.example.com')).toBe(false);
  });
});
