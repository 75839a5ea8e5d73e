import { defineSiteCheck } from './site-check.ts';
import { compareText, siteOutcome } from './site-outcome.ts';

export const internalNofollow = defineSiteCheck({
  id: 'internal_nofollow',
  importance: 'low',
  title: 'No internal link carries rel=nofollow',
  failureTitle: 'Some internal links carry rel=nofollow',
  description:
    'rel=nofollow on a link to your own page tells search engines not to follow it or pass it any weight, which starves the target page; it is meant for links you do not vouch for.',
  howToFix:
    'Remove rel=nofollow from links to your own pages; keep a page out of search with noindex instead, and out of crawling with robots.txt.',
  run(site) {
    const findings = site.pages.flatMap((page) =>
      page.nofollowLinksOut.map((target) => ({ page: page.url, target: site.pages[target].url })),
    );
    return siteOutcome(findings, (a, b) => compareText(a.page, b.page) || compareText(a.target, b.target));
  },
});
