import { describe, expect, it } from 'vitest';
import { at, siteOf } from './site-fixture.ts';
import { duplicateTitles } from './duplicate-titles.ts';

describe('duplicate_titles', () => {
  it('finds nothing when titles differ or are missing', () => {
    const site = siteOf({ '/': { title: 'Home' }, '/a': { title: 'About' }, '/b': {}, '/c': {} });
    expect(duplicateTitles.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each shared title with its pages, largest group first', () => {
    const site = siteOf({
      '/': { title: 'Shop' },
      '/x': { title: 'Item' },
      '/y': { title: 'Item' },
      '/z': { title: 'Item' },
      '/shop': { title: 'Shop' },
    });
    expect(duplicateTitles.run(site)).toEqual({
      count: 2,
      items: [
        { title: 'Item', pages: [at('/x'), at('/y'), at('/z')], page_count: 3 },
        { title: 'Shop', pages: [at('/'), at('/shop')], page_count: 2 },
      ],
    });
  });

  it('counts only indexable HTML pages that speak for themselves', () => {
    const site = siteOf({
      '/': { title: 'Shop' },
      '/hidden': { title: 'Shop', noindex: true },
      '/copy': { title: 'Shop', canonical: '/' },
      '/file.pdf': { title: 'Shop', html: false },
      '/self': { title: 'Self', canonical: '/self' },
      '/self-too': { title: 'Self' },
    });
    expect(duplicateTitles.run(site)).toEqual({
      count: 1,
      items: [{ title: 'Self', pages: [at('/self'), at('/self-too')], page_count: 2 }],
    });
  });
});
