import { sql, type SqlBool } from 'kysely';
import { defineSiteCheck } from './site-check.ts';
import { findingsWithLinkers } from './site-pages.ts';

// A 4xx or 5xx in the end (after its redirects), or no answer at all, for a URL some page links to. A
// URL never fetched is unknown, not broken.
const MAYBE_BROKEN = sql<SqlBool>`crawl_pages.inlinks > 0 and (crawl_pages.status_code >= 400 or crawl_pages.redirect_target is not null or (crawl_pages.status_code is null and crawl_pages.error is not null))`;

export const brokenLinks = defineSiteCheck({
  id: 'broken_links',
  importance: 'high',
  title: 'No internal link is broken',
  failureTitle: 'Internal links lead to errors',
  description:
    'A link to a page that answers 4xx or 5xx, or does not answer, is a dead end for visitors and for search engines, which waste crawl time on it and pass nothing through it.',
  howToFix:
    'Point each link at a page that exists, or restore the missing page (or redirect its URL to the page that replaced it); fix server errors at their cause.',
  run: (site) =>
    findingsWithLinkers(site, MAYBE_BROKEN, (page, chain) => {
      const broken = page.status_code === null ? page.error !== null : (chain.finalStatusCode ?? 0) >= 400;
      return broken ? { url: page.url, status_code: chain.finalStatusCode ?? page.status_code, error: page.error } : null;
    }),
});
