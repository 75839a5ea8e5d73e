import { defineSiteCheck } from './site-check.ts';
import { compareText, siteOutcome } from './site-outcome.ts';

export const orphanPages = defineSiteCheck({
  id: 'orphan_pages',
  importance: 'medium',
  title: 'Every sitemap URL is linked from the site',
  failureTitle: 'Some sitemap URLs are not linked from any page',
  description:
    'A page no other page links to gets no link weight, and visitors can reach it only from search or by knowing its address; search engines treat such pages as unimportant.',
  howToFix:
    'Link to each of these pages from a related page or a navigation page, or remove it from the sitemap if it should no longer be found.',
  run(site) {
    const linked = new Set<number>();
    site.pages.forEach((page, index) => {
      for (const target of page.linksOut) if (target !== index) linked.add(target);
    });
    // The start page is where the crawl comes in, and when its URL redirects, its page is where it lands.
    const start = site.pages.find((page) => page.url === site.startUrl);
    const entrances = new Set([site.startUrl, start?.redirectTarget]);
    const findings = site.pages
      .filter((page, index) => page.inSitemap && !linked.has(index) && !entrances.has(page.url))
      .map((page) => ({ url: page.url }));
    return siteOutcome(findings, (a, b) => compareText(a.url, b.url));
  },
});
