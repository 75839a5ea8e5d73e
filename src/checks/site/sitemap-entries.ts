import { defineSiteCheck } from './site-check.ts';
import { notIndexableReason } from './site-pages.ts';
import { compareText, siteOutcome } from './site-outcome.ts';

export const sitemapEntries = defineSiteCheck({
  id: 'sitemap_entries',
  importance: 'medium',
  title: 'Every sitemap URL is an indexable page',
  failureTitle: 'The sitemap lists URLs that cannot be indexed',
  description:
    'A sitemap should list only the URLs you want indexed. Entries that error, redirect, are noindex, blocked or canonicalised elsewhere waste crawl time and make search engines trust the sitemap less.',
  howToFix:
    'List each page once, at its final, 200, indexable URL (the URL its canonical names), and drop entries for pages that are gone or kept out of search.',
  run(site) {
    const findings = site.pages.flatMap((page) => {
      if (!page.inSitemap) return [];
      const canonicalised = page.canonical !== null && page.canonical !== page.url;
      const reason = notIndexableReason(page.url, page, site) ?? (canonicalised ? `canonicalised to ${page.canonical}` : null);
      return reason === null ? [] : [{ url: page.url, reason }];
    });
    return siteOutcome(findings, (a, b) => compareText(a.url, b.url));
  },
});
