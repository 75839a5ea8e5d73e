import { defineSiteCheck, type CrawledPage } from './site-check.ts';
import { findingsWithLinkers } from './site-pages.ts';

/** A 4xx or 5xx in the end, or no answer at all. A URL never fetched is unknown, not broken. */
function isBroken(page: CrawledPage): boolean {
  if (!page.fetched) return false;
  if (page.statusCode === null) return page.error !== null;
  return (page.finalStatusCode ?? 0) >= 400;
}

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
    findingsWithLinkers(site, (page, linkedFromCount) =>
      linkedFromCount > 0 && isBroken(page) ? { url: page.url, status_code: page.finalStatusCode ?? page.statusCode, error: page.error } : null,
    ),
});
