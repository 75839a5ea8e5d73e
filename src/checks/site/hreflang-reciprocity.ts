import { defineSiteCheck } from './site-check.ts';
import { pagesByUrl } from './site-pages.ts';
import { compareText, siteOutcome } from './site-outcome.ts';

interface Finding {
  page: string;
  alternate: string;
  lang: string;
}

export const hreflangReciprocity = defineSiteCheck({
  id: 'hreflang_reciprocity',
  importance: 'low',
  title: 'hreflang alternates name each other',
  failureTitle: 'Some hreflang alternates do not name the page back',
  description:
    'Search engines use an hreflang pair only when both pages name each other, so that no site can claim to be another\'s translation; a one-way entry is ignored.',
  howToFix: 'List the same set of alternates, the page itself included, on every page of the set.',
  run(site) {
    const byUrl = pagesByUrl(site);
    const findings: Finding[] = [];
    for (const page of site.pages) {
      if (!page.html) continue;
      const seen = new Set<string>();
      for (const { lang, url } of page.hreflang) {
        const alternate = byUrl.get(url);
        // Itself, off the crawl, or not an analysed page: nothing to compare with.
        if (url === page.url || !alternate?.fetched || !alternate.html) continue;
        if (seen.has(`${lang} ${url}`)) continue;
        seen.add(`${lang} ${url}`);
        if (!alternate.hreflang.some((back) => back.url === page.url)) findings.push({ page: page.url, alternate: url, lang });
      }
    }
    return siteOutcome(findings, (a, b) => compareText(a.page, b.page) || compareText(a.lang, b.lang) || compareText(a.alternate, b.alternate));
  },
});
