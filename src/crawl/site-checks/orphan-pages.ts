import { followRedirects, pagesByUrl } from '../site-redirects.ts';
import { inPageRange, pageRanges } from '../site-scan.ts';
import { defineSiteCheck } from './site-check.ts';
import { compareText, KeptFindings } from './site-outcome.ts';

export const orphanPages = defineSiteCheck({
  id: 'orphan_pages',
  importance: 'medium',
  title: 'Every sitemap URL is linked from the site',
  failureTitle: 'Some sitemap URLs are not linked from any page',
  description:
    'A page no other page links to gets no link weight, and visitors can reach it only from search or by knowing its address; search engines treat such pages as unimportant.',
  howToFix:
    'Link to each of these pages from a related page or a navigation page, or remove it from the sitemap if it should no longer be found.',
  async run(site) {
    // The start page is where the crawl comes in, and when its URL redirects, its page is where it lands.
    const start = (await pagesByUrl(site, [site.startUrl])).get(site.startUrl);
    const entrances = new Set([site.startUrl]);
    if (start?.redirect_target) entrances.add((await followRedirects(site, [start])).get(start.url)!.end);
    const kept = new KeptFindings<{ url: string }>((a, b) => compareText(a.url, b.url));
    for await (const { from, to } of pageRanges(site)) {
      // inlinks: the other pages linking to it (the finish stores them before the checks run).
      const rows = await site.db.selectFrom('crawl_pages').select('url').where(inPageRange(site, from, to)).where('in_sitemap', '=', 1).where('inlinks', '=', 0).execute();
      for (const { url } of rows) if (!entrances.has(url)) kept.add({ url });
    }
    return { count: kept.count, items: kept.first() };
  },
});
