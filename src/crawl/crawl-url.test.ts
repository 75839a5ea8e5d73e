import { describe, expect, it } from 'vitest';
import { crawlUrl } from './crawl-url.ts';

describe('the URLs a crawl takes', () => {
  it('keeps the host\'s pages, normalised as report URLs are', () => {
    expect(crawlUrl('HTTPS://Example.com:443/a/../b?q=1#top', 'example.com')).toBe('https://example.com/b?q=1');
    expect(crawlUrl(new URL('http://example.com/caf\u00e9'), 'example.com')).toBe('http://example.com/caf%C3%A9');
  });

  it('drops other hosts, other ports, subdomains and non-page addresses', () => {
    expect(crawlUrl('https://www.example.com/', 'example.com')).toBeNull();
    expect(crawlUrl('https://example.com:8443/', 'example.com')).toBeNull();
    expect(crawlUrl('mailto:a@example.com', 'example.com')).toBeNull();
    expect(crawlUrl('https://user:pw@example.com/', 'example.com')).toBeNull();
    expect(crawlUrl('https://example.com:8443/x', 'example.com:8443')).toBe('https://example.com:8443/x');
  });
});
