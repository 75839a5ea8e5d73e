import { describe, expect, it } from 'vitest';
import { at, siteOf } from './site-fixture.ts';
import { deepPages } from './deep-pages.ts';

describe('deep_pages', () => {
  it('finds nothing within 4 clicks, nor for URLs known only from a sitemap', () => {
    const site = siteOf({ '/': { depth: 0 }, '/four': { depth: 4 }, '/sitemap-only': { depth: null, inSitemap: true } });
    expect(deepPages.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names pages more than 4 clicks away, deepest first', () => {
    const site = siteOf({ '/': { depth: 0 }, '/five': { depth: 5 }, '/seven': { depth: 7 }, '/also-five': { depth: 5 } });
    expect(deepPages.run(site)).toEqual({
      count: 3,
      items: [
        { url: at('/seven'), depth: 7 },
        { url: at('/also-five'), depth: 5 },
        { url: at('/five'), depth: 5 },
      ],
    });
  });
});
