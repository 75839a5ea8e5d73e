import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, siteOf } from './site-fixture.ts';
import { deepPages } from './deep-pages.ts';

forEachDialect('deep_pages', (database) => {
  it('finds nothing within 4 clicks, nor for URLs known only from a sitemap', async () => {
    const site = await siteOf(database().db, { '/': { depth: 0 }, '/four': { depth: 4 }, '/sitemap-only': { depth: null, inSitemap: true } });
    expect(await deepPages.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names pages more than 4 clicks away, deepest first', async () => {
    const site = await siteOf(database().db, { '/': { depth: 0 }, '/five': { depth: 5 }, '/seven': { depth: 7 }, '/also-five': { depth: 5 } });
    expect(await deepPages.run(site)).toEqual({
      count: 3,
      items: [
        { url: at('/seven'), depth: 7 },
        { url: at('/also-five'), depth: 5 },
        { url: at('/five'), depth: 5 },
      ],
    });
  });
});
