import { describe, expect, it } from 'vitest';
import { at, redirecting, siteOf } from './site-fixture.ts';
import { redirectChains } from './redirect-chains.ts';

describe('redirect_chains', () => {
  it('finds nothing for single redirects', () => {
    expect(redirectChains.run(siteOf({ '/': { links: ['/old'] }, '/old': redirecting('/') }))).toEqual({ count: 0, items: [] });
  });

  it('names URLs that take two or more redirects or loop, with the pages linking to them', () => {
    const site = siteOf({
      '/': { links: ['/chain'] },
      '/chain': redirecting('/', 2),
      '/loop': { ...redirecting('/loop', 1), redirectLoop: true, finalStatusCode: null },
    });
    expect(redirectChains.run(site)).toEqual({
      count: 2,
      items: [
        { url: at('/chain'), redirect_target: at('/'), hops: 2, loop: false, linked_from: [at('/')], linked_from_count: 1 },
        { url: at('/loop'), redirect_target: at('/loop'), hops: 1, loop: true, linked_from: [], linked_from_count: 0 },
      ],
    });
  });
});
