import { describe, expect, it } from 'vitest';
import { answering, at, siteOf, UNFETCHED } from './site-fixture.ts';
import { hreflangReciprocity } from './hreflang-reciprocity.ts';

const alternates = (...pairs: [string, string][]) => pairs.map(([lang, url]) => ({ lang, url }));

describe('hreflang_reciprocity', () => {
  it('finds nothing when alternates name each other', () => {
    const site = siteOf({
      '/en': { hreflang: alternates(['en', '/en'], ['de', '/de']) },
      '/de': { hreflang: alternates(['en', '/en'], ['de', '/de']) },
    });
    expect(hreflangReciprocity.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each page, alternate and language where the alternate does not name the page back', () => {
    const site = siteOf({
      '/en': { hreflang: alternates(['en', '/en'], ['de', '/de'], ['fr', '/fr']) },
      '/de': { hreflang: alternates(['de', '/de'], ['fr', '/fr']) },
      '/fr': {},
    });
    expect(hreflangReciprocity.run(site)).toEqual({
      count: 3,
      items: [
        { page: at('/de'), alternate: at('/fr'), lang: 'fr' },
        { page: at('/en'), alternate: at('/de'), lang: 'de' },
        { page: at('/en'), alternate: at('/fr'), lang: 'fr' },
      ],
    });
  });

  it('ignores alternates off the crawl, never fetched, or not HTML pages', () => {
    const site = siteOf({
      '/en': { hreflang: alternates(['de', 'https://example.de/'], ['fr', '/fr'], ['es', '/es']) },
      '/fr': UNFETCHED,
      '/es': answering(404),
    });
    expect(hreflangReciprocity.run(site).count).toBe(0);
  });
});
