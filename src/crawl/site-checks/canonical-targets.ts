import { sql, type SqlBool } from 'kysely';
import { withPageGroups } from '../site-groups.ts';
import { followRedirects, notIndexableReason, pagesByUrl } from '../site-redirects.ts';
import { defineSiteCheck } from './site-check.ts';
import { byPageCountThenUrl, KeptFindings } from './site-outcome.ts';

const POINTING = {
  value: sql<string | null>`crawl_pages.canonical`,
  where: sql<SqlBool>`crawl_pages.html = 1`,
  // The crawl marks a canonical robots.txt disallows on the page that names it.
  flag: sql<number>`crawl_pages.canonical_blocked`,
};

export const canonicalTargets = defineSiteCheck({
  id: 'canonical_targets',
  importance: 'high',
  title: 'Every canonical points to an indexable page',
  failureTitle: 'Canonicals point to pages that cannot be indexed',
  description:
    'A canonical asks search engines to index another URL in place of this page. When that URL errors, redirects, is noindex or is blocked by robots.txt, the hint contradicts itself and search engines may drop both pages or ignore it.',
  howToFix:
    'Point each canonical at the final, 200, indexable URL of the page (its own URL when it stands for itself), and fix or unblock the target when it should be indexed.',
  run: (site) =>
    withPageGroups(site, POINTING, async (groups) => {
      const kept = new KeptFindings<{ canonical: string; reason: string; page_count: number }>(
        byPageCountThenUrl((item) => item.page_count, (item) => item.canonical),
      );
      for await (const step of groups.groups(1)) {
        const targets = await pagesByUrl(site, step.flatMap((group) => (group.flag === 1 ? [] : [group.value])));
        const chains = await followRedirects(site, [...targets.values()]);
        for (const group of step) {
          const target = targets.get(group.value);
          const reason = group.flag === 1 ? 'blocked by robots.txt' : notIndexableReason(target, target && chains.get(target.url));
          if (reason !== null) kept.add({ canonical: group.value, reason, page_count: group.count });
        }
      }
      const items = [];
      for (const { canonical, reason, page_count } of kept.first()) items.push({ canonical, reason, pages: await groups.firstUrls(canonical), page_count });
      return { count: kept.count, items };
    }),
});
