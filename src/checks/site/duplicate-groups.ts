// The grouping behind duplicate_titles, duplicate_descriptions and duplicate_content: indexable pages
// that share one value, two or more to a group.
import type { CrawledPage, SiteFacts, SiteCheckOutcome } from './site-check.ts';
import { isIndexable, urlsByValue } from './site-pages.ts';
import { byPageCountThenUrl, firstPages, siteOutcome } from './site-outcome.ts';

/**
 * One item per shared value: `{[key]: value, pages, page_count}`, largest groups first. A missing value
 * (null) is no value and never groups pages; the page checks report it.
 */
export function duplicateGroups(site: SiteFacts, key: string, valueOf: (page: CrawledPage) => string | null): SiteCheckOutcome {
  const groups = urlsByValue(site.pages.filter(isIndexable), valueOf);
  const findings = [...groups]
    .filter(([, urls]) => urls.length >= 2)
    .map(([value, urls]) => ({ [key]: value, pages: firstPages(urls), page_count: urls.length }));
  return siteOutcome(findings, byPageCountThenUrl((item) => item.page_count, (item) => item.pages[0]));
}
