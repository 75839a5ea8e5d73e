import { defineSiteCheck } from './site-check.ts';
import { notIndexableReason, pagesByUrl, urlsByValue } from './site-pages.ts';
import { byPageCountThenUrl, firstPages, siteOutcome } from './site-outcome.ts';

export const canonicalTargets = defineSiteCheck({
  id: 'canonical_targets',
  importance: 'high',
  title: 'Every canonical points to an indexable page',
  failureTitle: 'Canonicals point to pages that cannot be indexed',
  description:
    'A canonical asks search engines to index another URL in place of this page. When that URL errors, redirects, is noindex or is blocked by robots.txt, the hint contradicts itself and search engines may drop both pages or ignore it.',
  howToFix:
    'Point each canonical at the final, 200, indexable URL of the page (its own URL when it stands for itself), and fix or unblock the target when it should be indexed.',
  run(site) {
    const byUrl = pagesByUrl(site);
    const pointing = urlsByValue(site.pages, (page) => (page.html ? page.canonical : null));
    const findings = [...pointing].flatMap(([canonical, pages]) => {
      const reason = notIndexableReason(canonical, byUrl.get(canonical), site);
      return reason === null ? [] : [{ canonical, reason, pages: firstPages(pages), page_count: pages.length }];
    });
    return siteOutcome(findings, byPageCountThenUrl((item) => item.page_count, (item) => item.canonical));
  },
});
