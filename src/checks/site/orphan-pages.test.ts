import { describe, expect, it } from 'vitest';
import { at, redirecting, siteOf } from './site-fixture.ts';
import { orphanPages } from './orphan-pages.ts';

describe('orphan_pages', () => {
  it('finds nothing when every sitemap URL is linked from another page', () => {
    const site = siteOf({ '/': { inSitemap: true, links: ['/a'] }, '/a': { inSitemap: true } });
    expect(orphanPages.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names sitemap URLs no other page links to, a page linking only to itself included', () => {
    const site = siteOf({
      '/': {},
      '/lonely': { inSitemap: true, depth: null },
      '/self': { inSitemap: true, links: ['/self'] },
      '/not-in-sitemap': { depth: null },
    });
    expect(orphanPages.run(site)).toEqual({ count: 2, items: [{ url: at('/lonely') }, { url: at('/self') }] });
  });

  it('never counts the start page, nor the page its URL redirects to', () => {
    const site = siteOf({ 'http://example.com/': redirecting('https://example.com/'), '/': { inSitemap: true } });
    expect(orphanPages.run(site).count).toBe(0);
  });
});
