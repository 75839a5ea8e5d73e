import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, siteOf } from './site-fixture.ts';
import { duplicateDescriptions } from './duplicate-descriptions.ts';

forEachDialect('duplicate_descriptions', (database) => {
  it('finds nothing when descriptions differ or are missing', async () => {
    expect(await duplicateDescriptions.run(await siteOf(database().db, { '/': { description: 'One' }, '/a': { description: 'Two' }, '/b': {}, '/c': {} }))).toEqual({
      count: 0,
      items: [],
    });
  });

  it('names each shared description with its indexable pages', async () => {
    const site = await siteOf(database().db, {
      '/': { description: 'Fresh bread' },
      '/a': { description: 'Fresh bread' },
      '/hidden': { description: 'Fresh bread', noindex: true },
      '/copy': { description: 'Fresh bread', canonical: '/' },
    });
    expect(await duplicateDescriptions.run(site)).toEqual({
      count: 1,
      items: [{ description: 'Fresh bread', pages: [at('/'), at('/a')], page_count: 2 }],
    });
  });
});
