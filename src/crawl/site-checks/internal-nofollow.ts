import { inLinkRange, linkRanges } from '../site-links.ts';
import { defineSiteCheck } from './site-check.ts';
import { compareText, KeptFindings } from './site-outcome.ts';

export const internalNofollow = defineSiteCheck({
  id: 'internal_nofollow',
  importance: 'low',
  title: 'No internal link carries rel=nofollow',
  failureTitle: 'Some internal links carry rel=nofollow',
  description:
    'rel=nofollow on a link to your own page tells search engines not to follow it or pass it any weight, which starves the target page; it is meant for links you do not vouch for.',
  howToFix:
    'Remove rel=nofollow from links to your own pages; keep a page out of search with noindex instead, and out of crawling with robots.txt.',
  async run(site) {
    const kept = new KeptFindings<{ page: string; target: string }>((a, b) => compareText(a.page, b.page) || compareText(a.target, b.target));
    for await (const range of linkRanges(site)) {
      const rows = await site.db
        .selectFrom('crawl_links')
        .innerJoin('crawl_pages as source', 'source.id', 'crawl_links.from_id')
        .innerJoin('crawl_pages as target', 'target.id', 'crawl_links.to_id')
        .select(['source.url as page', 'target.url as target'])
        .where(inLinkRange(site, range))
        .where('crawl_links.nofollow', '=', 1)
        .execute();
      for (const row of rows) kept.add(row);
    }
    return { count: kept.count, items: kept.first() };
  },
});
