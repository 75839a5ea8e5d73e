import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { answering, at, siteOf, UNFETCHED } from './site-fixture.ts';
import { hreflangReciprocity } from './hreflang-reciprocity.ts';

const alternates = (...pairs: [string, string][]) => pairs.map(([lang, url]) => ({ lang, url }));

forEachDialect('hreflang_reciprocity', (database) => {
  it('finds nothing when alternates name each other', async () => {
    const site = await siteOf(database().db, {
      '/en': { hreflang: alternates(['en', '/en'], ['de', '/de']) },
      '/de': { hreflang: alternates(['en', '/en'], ['de', '/de']) },
    });
    expect(await hreflangReciprocity.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each page, alternate and language where the alternate does not name the page back', async () => {
    const site = await siteOf(database().db, {
      '/en': { hreflang: alternates(['en', '/en'], ['de', '/de'], ['fr', '/fr']) },
      '/de': { hreflang: alternates(['de', '/de'], ['fr', '/fr']) },
      '/fr': {},
    });
    expect(await hreflangReciprocity.run(site)).toEqual({
      count: 3,
      items: [
        { page: at('/de'), alternate: at('/fr'), lang: 'fr' },
        { page: at('/en'), alternate: at('/de'), lang: 'de' },
        { page: at('/en'), alternate: at('/fr'), lang: 'fr' },
      ],
    });
  });

  it('ignores alternates off the crawl, never fetched, or not HTML pages', async () => {
    const site = await siteOf(database().db, {
      '/en': { hreflang: alternates(['de', 'https://example.de/'], ['fr', '/fr'], ['es', '/es']) },
      '/fr': UNFETCHED,
      '/es': answering(404),
    });
    expect((await hreflangReciprocity.run(site)).count).toBe(0);
  });
});
