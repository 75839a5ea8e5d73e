import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { answering, at, BLOCKED, redirecting, siteOf, UNFETCHED } from './site-fixture.ts';
import { sitemapEntries } from './sitemap-entries.ts';

forEachDialect('sitemap_entries', (database) => {
  it('finds nothing when every sitemap URL is an indexable 200 page', async () => {
    const site = await siteOf(database().db, { '/': { inSitemap: true, canonical: '/' }, '/a': { inSitemap: true } });
    expect(await sitemapEntries.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each sitemap URL that cannot be indexed as listed, and why', async () => {
    const site = await siteOf(database().db, 
      {
        '/': {},
        '/copy': { inSitemap: true, canonical: '/' },
        '/down': { state: 'done', statusCode: null, html: false, error: 'Timed out', inSitemap: true },
        '/gone': { ...answering(404), inSitemap: true },
        '/hidden': { inSitemap: true, noindex: true },
        '/old': { ...redirecting('/'), inSitemap: true },
        '/private': BLOCKED,
      },
    );
    expect(await sitemapEntries.run(site)).toEqual({
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

  it('says nothing of sitemap URLs never fetched', async () => {
    expect((await sitemapEntries.run(await siteOf(database().db, { '/': {}, '/later': { ...UNFETCHED, inSitemap: true } }))).count).toBe(0);
  });
});
