import { pagesByUrl } from '../site-redirects.ts';
import { inPageRange, pageRanges } from '../site-scan.ts';
import { defineSiteCheck } from './site-check.ts';
import { compareText, KeptFindings } from './site-outcome.ts';

type Alternates = { lang: string; url: string }[];

function alternatesOf(json: string | null): Alternates {
  return json === null ? [] : (JSON.parse(json) as Alternates);
}

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
  async run(site) {
    const kept = new KeptFindings<Finding>((a, b) => compareText(a.page, b.page) || compareText(a.lang, b.lang) || compareText(a.alternate, b.alternate));
    for await (const { from, to } of pageRanges(site)) {
      const pages = await site.db
        .selectFrom('crawl_pages')
        .select(['url', 'hreflang'])
        .where(inPageRange(site, from, to))
        .where('html', '=', 1)
        .where('hreflang', 'is not', null)
        .execute();
      if (pages.length === 0) continue;
      const listed = pages.map((page) => ({ url: page.url, alternates: alternatesOf(page.hreflang) }));
      const byUrl = await pagesByUrl(site, listed.flatMap((page) => page.alternates.map(({ url }) => url)));
      const backLinks = new Map<string, Set<string>>();
      for (const page of listed) {
        const seen = new Set<string>();
        for (const { lang, url } of page.alternates) {
          const alternate = byUrl.get(url);
          // Itself, off the crawl, or not an analysed page: nothing to compare with.
          if (url === page.url || alternate?.state !== 'done' || alternate.html !== 1) continue;
          if (seen.has(`${lang} ${url}`)) continue;
          seen.add(`${lang} ${url}`);
          let back = backLinks.get(url);
          if (back === undefined) {
            back = new Set(alternatesOf(alternate.hreflang).map((entry) => entry.url));
            backLinks.set(url, back);
          }
          if (!back.has(page.url)) kept.add({ page: page.url, alternate: url, lang });
        }
      }
    }
    return { count: kept.count, items: kept.first() };
  },
});
