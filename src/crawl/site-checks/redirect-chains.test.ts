import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, redirecting, siteOf } from './site-fixture.ts';
import { redirectChains } from './redirect-chains.ts';

forEachDialect('redirect_chains', (database) => {
  it('finds nothing for single redirects', async () => {
    expect(await redirectChains.run(await siteOf(database().db, { '/': { links: ['/old'] }, '/old': redirecting('/') }))).toEqual({ count: 0, items: [] });
  });

  it('names URLs that take two or more redirects or loop, with the pages linking to them', async () => {
    const site = await siteOf(database().db, {
      '/': { links: ['/chain'] },
      '/chain': redirecting('/chain-2'),
      '/chain-2': redirecting('/'),
      '/loop': redirecting('/loop'),
    });
    expect(await redirectChains.run(site)).toEqual({
      count: 2,
      items: [
        { url: at('/chain'), redirect_target: at('/'), hops: 2, loop: false, linked_from: [at('/')], linked_from_count: 1 },
        { url: at('/loop'), redirect_target: at('/loop'), hops: 1, loop: true, linked_from: [], linked_from_count: 0 },
      ],
    });
  });
});
