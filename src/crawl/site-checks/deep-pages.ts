import { inPageRange, pageRanges } from '../site-scan.ts';
import { defineSiteCheck } from './site-check.ts';
import { compareText, KeptFindings } from './site-outcome.ts';

// More than 4 clicks from the start page counts as deep: search engines crawl deep pages less often.
const MAX_CLICKS = 4;

export const deepPages = defineSiteCheck({
  id: 'deep_pages',
  importance: 'low',
  title: 'Every page is within 4 clicks of the start page',
  failureTitle: 'Some pages are more than 4 clicks from the start page',
  description:
    'Pages buried deep in the link structure are found late by search engines, crawled less often and seen as less important; visitors rarely click that far.',
  howToFix:
    'Link to deep pages from pages nearer the start: navigation, category or hub pages, related-content links or pagination that skips ahead.',
  async run(site) {
    const kept = new KeptFindings<{ url: string; depth: number }>((a, b) => b.depth - a.depth || compareText(a.url, b.url));
    for await (const { from, to } of pageRanges(site)) {
      const rows = await site.db.selectFrom('crawl_pages').select(['url', 'depth']).where(inPageRange(site, from, to)).where('depth', '>', MAX_CLICKS).execute();
      for (const { url, depth } of rows) kept.add({ url, depth: depth! });
    }
    return { count: kept.count, items: kept.first() };
  },
});
