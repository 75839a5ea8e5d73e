import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, siteOf } from './site-fixture.ts';
import { duplicateTitles } from './duplicate-titles.ts';

forEachDialect('duplicate_titles', (database) => {
  it('finds nothing when titles differ or are missing', async () => {
    const site = await siteOf(database().db, { '/': { title: 'Home' }, '/a': { title: 'About' }, '/b': {}, '/c': {} });
    expect(await duplicateTitles.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each shared title with its pages, largest group first', async () => {
    const site = await siteOf(database().db, {
      '/': { title: 'Shop' },
      '/x': { title: 'Item' },
      '/y': { title: 'Item' },
      '/z': { title: 'Item' },
      '/shop': { title: 'Shop' },
    });
    expect(await duplicateTitles.run(site)).toEqual({
      count: 2,
      items: [
        { title: 'Item', pages: [at('/x'), at('/y'), at('/z')], page_count: 3 },
        { title: 'Shop', pages: [at('/'), at('/shop')], page_count: 2 },
      ],
    });
  });

  it('counts only indexable HTML pages that speak for themselves', async () => {
    const site = await siteOf(database().db, {
      '/': { title: 'Shop' },
      '/hidden': { title: 'Shop', noindex: true },
      '/copy': { title: 'Shop', canonical: '/' },
      '/file.pdf': { title: 'Shop', html: false },
      '/self': { title: 'Self', canonical: '/self' },
      '/self-too': { title: 'Self' },
    });
    expect(await duplicateTitles.run(site)).toEqual({
      count: 1,
      items: [{ title: 'Self', pages: [at('/self'), at('/self-too')], page_count: 2 }],
    });
  });
});
