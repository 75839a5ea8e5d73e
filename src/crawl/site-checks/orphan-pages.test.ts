import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, redirecting, siteOf } from './site-fixture.ts';
import { orphanPages } from './orphan-pages.ts';

forEachDialect('orphan_pages', (database) => {
  it('finds nothing when every sitemap URL is linked from another page', async () => {
    const site = await siteOf(database().db, { '/': { inSitemap: true, links: ['/a'] }, '/a': { inSitemap: true } });
    expect(await orphanPages.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names sitemap URLs no other page links to, a page linking only to itself included', async () => {
    const site = await siteOf(database().db, {
      '/': {},
      '/lonely': { inSitemap: true, depth: null },
      '/self': { inSitemap: true, links: ['/self'] },
      '/not-in-sitemap': { depth: null },
    });
    expect(await orphanPages.run(site)).toEqual({ count: 2, items: [{ url: at('/lonely') }, { url: at('/self') }] });
  });

  it('never counts the start page, nor the page its URL redirects to', async () => {
    const site = await siteOf(database().db, { 'http://example.com/': redirecting('https://example.com/'), '/': { inSitemap: true } });
    expect((await orphanPages.run(site)).count).toBe(0);
  });
});
