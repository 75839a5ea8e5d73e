import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, redirecting, siteOf } from './site-fixture.ts';
import { redirectedLinks } from './redirected-links.ts';

forEachDialect('redirected_links', (database) => {
  it('finds nothing when links name their final URLs', async () => {
    expect(await redirectedLinks.run(await siteOf(database().db, { '/': { links: ['/a'] }, '/a': {} }))).toEqual({ count: 0, items: [] });
  });

  it('names each redirecting target with where it ends and the pages linking to it, most linked first', async () => {
    const site = await siteOf(database().db, {
      '/': { links: ['/old', '/elsewhere'] },
      '/a': { links: ['/elsewhere'] },
      '/old': redirecting('/new'),
      '/new': {},
      '/elsewhere': redirecting('https://other.example/', 302),
    });
    expect(await redirectedLinks.run(site)).toEqual({
      count: 2,
      items: [
        { url: at('/elsewhere'), status_code: 302, redirect_target: 'https://other.example/', linked_from: [at('/'), at('/a')], linked_from_count: 2 },
        { url: at('/old'), status_code: 301, redirect_target: at('/new'), linked_from: [at('/')], linked_from_count: 1 },
      ],
    });
  });

  it('leaves redirect loops to redirect_chains and ignores redirects nobody links to', async () => {
    const site = await siteOf(database().db, { '/': { links: ['/loop'] }, '/loop': redirecting('/loop'), '/unlinked': redirecting('/') });
    expect((await redirectedLinks.run(site)).count).toBe(0);
  });
});
