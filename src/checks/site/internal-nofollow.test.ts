import { describe, expect, it } from 'vitest';
import { at, siteOf } from './site-fixture.ts';
import { internalNofollow } from './internal-nofollow.ts';

describe('internal_nofollow', () => {
  it('finds nothing when internal links are followed', () => {
    expect(internalNofollow.run(siteOf({ '/': { links: ['/a'] }, '/a': { links: ['/'] } }))).toEqual({ count: 0, items: [] });
  });

  it('names each linking page and target pair once', () => {
    const site = siteOf({
      '/': { links: ['/a'], nofollowLinks: ['/login', '/a'] },
      '/a': { nofollowLinks: ['/login'] },
      '/login': {},
    });
    expect(internalNofollow.run(site)).toEqual({
      count: 3,
      items: [
        { page: at('/'), target: at('/a') },
        { page: at('/'), target: at('/login') },
        { page: at('/a'), target: at('/login') },
      ],
    });
  });
});
