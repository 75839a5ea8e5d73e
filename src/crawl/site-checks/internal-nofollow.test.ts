import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, siteOf } from './site-fixture.ts';
import { internalNofollow } from './internal-nofollow.ts';

forEachDialect('internal_nofollow', (database) => {
  it('finds nothing when internal links are followed', async () => {
    expect(await internalNofollow.run(await siteOf(database().db, { '/': { links: ['/a'] }, '/a': { links: ['/'] } }))).toEqual({ count: 0, items: [] });
  });

  it('names each linking page and target pair once', async () => {
    const site = await siteOf(database().db, {
      '/': { links: ['/a'], nofollowLinks: ['/login', '/a'] },
      '/a': { nofollowLinks: ['/login'] },
      '/login': {},
    });
    expect(await internalNofollow.run(site)).toEqual({
      count: 3,
      items: [
        { page: at('/'), target: at('/a') },
        { page: at('/'), target: at('/login') },
        { page: at('/a'), target: at('/login') },
      ],
    });
  });
});
