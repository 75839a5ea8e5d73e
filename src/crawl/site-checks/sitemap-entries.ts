import { followRedirects, notIndexableReason } from '../site-redirects.ts';
import { inPageRange, pageRanges } from '../site-scan.ts';
import { defineSiteCheck } from './site-check.ts';
import { compareText, KeptFindings } from './site-outcome.ts';

export const sitemapEntries = defineSiteCheck({
  id: 'sitemap_entries',
  importance: 'medium',
  title: 'Every sitemap URL is an indexable page',
  failureTitle: 'The sitemap lists URLs that cannot be indexed',
  description:
    'A sitemap should list only the URLs you want indexed. Entries that error, redirect, are noindex, blocked or canonicalised elsewhere waste crawl time and make search engines trust the sitemap less.',
  howToFix:
    'List each page once, at its final, 200, indexable URL (the URL its canonical names), and drop entries for pages that are gone or kept out of search.',
  async run(site) {
    const kept = new KeptFindings<{ url: string; reason: string }>((a, b) => compareText(a.url, b.url));
    for await (const { from, to } of pageRanges(site)) {
      const rows = await site.db
        .selectFrom('crawl_pages')
        .select(['url', 'state', 'status_code', 'redirect_target', 'noindex', 'canonical'])
        .where(inPageRange(site, from, to))
        .where('in_sitemap', '=', 1)
        .execute();
      if (rows.length === 0) continue;
      const chains = await followRedirects(site, rows);
      for (const page of rows) {
        const canonicalised = page.canonical !== null && page.canonical !== page.url;
        const reason = notIndexableReason(page, chains.get(page.url)) ?? (canonicalised ? `canonicalised to ${page.canonical}` : null);
        if (reason !== null) kept.add({ url: page.url, reason });
      }
    }
    return { count: kept.count, items: kept.first() };
  },
});
