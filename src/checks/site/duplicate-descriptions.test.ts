import { describe, expect, it } from 'vitest';
import { at, siteOf } from './site-fixture.ts';
import { duplicateDescriptions } from './duplicate-descriptions.ts';

describe('duplicate_descriptions', () => {
  it('finds nothing when descriptions differ or are missing', () => {
    expect(duplicateDescriptions.run(siteOf({ '/': { description: 'One' }, '/a': { description: 'Two' }, '/b': {}, '/c': {} }))).toEqual({
      count: 0,
      items: [],
    });
  });

  it('names each shared description with its indexable pages', () => {
    const site = siteOf({
      '/': { description: 'Fresh bread' },
      '/a': { description: 'Fresh bread' },
      '/hidden': { description: 'Fresh bread', noindex: true },
      '/copy': { description: 'Fresh bread', canonical: '/' },
    });
    expect(duplicateDescriptions.run(site)).toEqual({
      count: 1,
      items: [{ description: 'Fresh bread', pages: [at('/'), at('/a')], page_count: 2 }],
    });
  });
});
