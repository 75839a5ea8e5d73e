import { sql, type SqlBool } from 'kysely';
import { defineSiteCheck } from './site-check.ts';
import { findingsWithLinkers } from './site-pages.ts';

export const redirectedLinks = defineSiteCheck({
  id: 'redirected_links',
  importance: 'low',
  title: 'Internal links point straight at their pages',
  failureTitle: 'Internal links lead to redirects',
  description:
    'Every redirect behind a link costs visitors a round trip and search engines a fetch, and a link that names the final URL states plainly which URL is the page.',
  howToFix: 'Change each link to the URL its redirect ends at.',
  run: (site) =>
    findingsWithLinkers(site, sql<SqlBool>`crawl_pages.inlinks > 0 and crawl_pages.redirect_target is not null`, (page, chain) =>
      // A loop has no page to point at instead; redirect_chains reports it.
      chain.loop ? null : { url: page.url, status_code: page.status_code, redirect_target: chain.end },
    ),
});
