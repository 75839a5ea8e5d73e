import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { answering, at, redirecting, siteOf, UNFETCHED } from './site-fixture.ts';
import { canonicalTargets } from './canonical-targets.ts';

forEachDialect('canonical_targets', (database) => {
  it('finds nothing when canonicals name indexable 200 pages, themselves included', async () => {
    const site = await siteOf(database().db, { '/': { canonical: '/' }, '/copy': { canonical: '/' }, '/a': {} });
    expect(await canonicalTargets.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each target that cannot be indexed, why, and the pages pointing at it', async () => {
    const site = await siteOf(database().db, 
      {
        '/': {},
        '/a': { canonical: '/gone' },
        '/b': { canonical: '/gone' },
        '/c': { canonical: '/old' },
        '/d': { canonical: '/private', canonicalBlocked: true },
        '/e': { canonical: '/hidden' },
        '/hidden': { noindex: true, canonical: '/hidden' },
        '/gone': answering(404),
        '/old': redirecting('/'),
      },
    );
    expect(await canonicalTargets.run(site)).toEqual({
      count: 4,
      items: [
        { canonical: at('/gone'), reason: '404', pages: [at('/a'), at('/b')], page_count: 2 },
        { canonical: at('/hidden'), reason: 'noindex', pages: [at('/e'), at('/hidden')], page_count: 2 },
        { canonical: at('/old'), reason: `redirects to ${at('/')}`, pages: [at('/c')], page_count: 1 },
        { canonical: at('/private'), reason: 'blocked by robots.txt', pages: [at('/d')], page_count: 1 },
      ],
    });
  });

  it('says nothing of targets it knows nothing about: unfetched, or off the crawl', async () => {
    const site = await siteOf(database().db, { '/': { canonical: '/later' }, '/later': UNFETCHED, '/a': { canonical: 'https://other.example/a' } });
    expect((await canonicalTargets.run(site)).count).toBe(0);
  });
});
