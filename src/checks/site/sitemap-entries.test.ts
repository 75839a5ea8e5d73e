import { describe, expect, it } from 'vitest';
import { answering, at, redirecting, siteOf, UNFETCHED } from './site-fixture.ts';
import { sitemapEntries } from './sitemap-entries.ts';

describe('sitemap_entries', () => {
  it('finds nothing when every sitemap URL is an indexable 200 page', () => {
    const site = siteOf({ '/': { inSitemap: true, canonical: '/' }, '/a': { inSitemap: true } });
    expect(sitemapEntries.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each sitemap URL that cannot be indexed as listed, and why', () => {
    const site = siteOf(
      {
        '/': {},
        '/copy': { inSitemap: true, canonical: '/' },
        '/down': { ...UNFETCHED, fetched: true, error: 'Timed out', inSitemap: true },
        '/gone': { ...answering(404), inSitemap: true },
        '/hidden': { inSitemap: true, noindex: true },
        '/old': { ...redirecting('/'), inSitemap: true },
        '/private': { ...UNFETCHED, inSitemap: true },
      },
      { blocked: ['/private'] },
    );
    expect(sitemapEntries.run(site)).toEqual({
      count: 6,
      items: [
        { url: at('/copy'), reason: `canonicalised to ${at('/')}` },
        { url: at('/down'), reason: 'unreachable' },
        { url: at('/gone'), reason: '404' },
        { url: at('/hidden'), reason: 'noindex' },
        { url: at('/old'), reason: `redirects to ${at('/')}` },
        { url: at('/private'), reason: 'blocked by robots.txt' },
      ],
    });
  });

  it('says nothing of sitemap URLs never fetched', () => {
    expect(sitemapEntries.run(siteOf({ '/': {}, '/later': { ...UNFETCHED, inSitemap: true } })).count).toBe(0);
  });
});
