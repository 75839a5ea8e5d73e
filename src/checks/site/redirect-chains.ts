import { defineSiteCheck } from './site-check.ts';
import { findingsWithLinkers } from './site-pages.ts';

export const redirectChains = defineSiteCheck({
  id: 'redirect_chains',
  importance: 'medium',
  title: 'No URL redirects more than once',
  failureTitle: 'Some URLs go through a chain of redirects or loop',
  description:
    'Each extra redirect slows visitors down and search engines follow only a few before giving up; a redirect loop never reaches a page at all.',
  howToFix:
    'Redirect each old URL in one step to its final page, and update links to name the final URL; break loops by making one URL answer 200.',
  run: (site) =>
    findingsWithLinkers(site, (page) =>
      page.fetched && (page.redirectHops >= 2 || page.redirectLoop)
        ? { url: page.url, redirect_target: page.redirectTarget, hops: page.redirectHops, loop: page.redirectLoop }
        : null,
    ),
});
