import { sql, type SqlBool } from 'kysely';
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
    findingsWithLinkers(site, sql<SqlBool>`crawl_pages.redirect_target is not null`, (page, chain) =>
      chain.hops >= 2 || chain.loop ? { url: page.url, redirect_target: chain.end, hops: chain.hops, loop: chain.loop } : null,
    ),
});
