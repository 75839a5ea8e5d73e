import { describe, expect, it } from 'vitest';
import { at, redirecting, siteOf } from './site-fixture.ts';
import { redirectedLinks } from './redirected-links.ts';

describe('redirected_links', () => {
  it('finds nothing when links name their final URLs', () => {
    expect(redirectedLinks.run(siteOf({ '/': { links: ['/a'] }, '/a': {} }))).toEqual({ count: 0, items: [] });
  });

  it('names each redirecting target with where it ends and the pages linking to it, most linked first', () => {
    const site = siteOf({
      '/': { links: ['/old', '/elsewhere'] },
      '/a': { links: ['/elsewhere'] },
      '/old': redirecting('/new'),
      '/new': {},
      '/elsewhere': { ...redirecting('https://other.example/'), statusCode: 302, finalStatusCode: 302 },
    });
    expect(redirectedLinks.run(site)).toEqual({
      count: 2,
      items: [
        { url: at('/elsewhere'), status_code: 302, redirect_target: 'https://other.example/', linked_from: [at('/'), at('/a')], linked_from_count: 2 },
        { url: at('/old'), status_code: 301, redirect_target: at('/new'), linked_from: [at('/')], linked_from_count: 1 },
      ],
    });
  });

  it('leaves redirect loops to redirect_chains and ignores redirects nobody links to', () => {
    const site = siteOf({ '/': { links: ['/loop'] }, '/loop': { ...redirecting('/loop', 3), redirectLoop: true }, '/unlinked': redirecting('/') });
    expect(redirectedLinks.run(site).count).toBe(0);
  });
});
