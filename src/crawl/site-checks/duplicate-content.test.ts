import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, siteOf } from './site-fixture.ts';
import { duplicateContent } from './duplicate-content.ts';

forEachDialect('duplicate_content', (database) => {
  it('finds nothing when texts differ or pages have no text', async () => {
    expect(await duplicateContent.run(await siteOf(database().db, { '/': { textHash: 'h1' }, '/a': { textHash: 'h2' }, '/b': {}, '/c': {} }))).toEqual({
      count: 0,
      items: [],
    });
  });

  it('names each group of indexable pages with the same text', async () => {
    const site = await siteOf(database().db, {
      '/?page=1': { textHash: 'h1' },
      '/': { textHash: 'h1' },
      '/print': { textHash: 'h1', canonical: '/' },
      '/draft': { textHash: 'h1', noindex: true },
    });
    expect(await duplicateContent.run(site)).toEqual({
      count: 1,
      items: [{ text_hash: 'h1', pages: [at('/'), at('/?page=1')], page_count: 2 }],
    });
  });
});
