// What several site checks ask of the stored crawl: the URLs others link to, with the pages linking to
// them, and which pages share a value.
import { sql, type Expression, type SqlBool } from 'kysely';
import { firstLinkingUrls } from '../site-links.ts';
import { followRedirects, type RedirectChain } from '../site-redirects.ts';
import { withPageGroups } from '../site-groups.ts';
import { inPageRange, pageRanges } from '../site-scan.ts';
import type { CrawlPageRow } from '../../db/tables/crawl.table.ts';
import type { SiteCheckOutcome, StoredSite } from './site-check.ts';
import { byPageCountThenUrl, KeptFindings } from './site-outcome.ts';

export type FetchedUrl = Pick<CrawlPageRow, 'id' | 'url' | 'state' | 'status_code' | 'redirect_target' | 'error' | 'inlinks'>;

/**
 * One finding per fetched URL `describe` picks (null: none), among the rows `where` lets through, each
 * followed by the pages linking to it (`linked_from`, the first of them, and `linked_from_count`, its
 * inlinks), the most linked first. `describe` is given the URL's redirect chain.
 */
export async function findingsWithLinkers<T extends { url: string }>(
  site: StoredSite,
  where: Expression<SqlBool>,
  describe: (row: FetchedUrl, chain: RedirectChain) => T | null,
): Promise<SiteCheckOutcome> {
  const kept = new KeptFindings<{ finding: T; id: number; inlinks: number }>(byPageCountThenUrl((item) => item.inlinks, (item) => item.finding.url));
  for await (const { from, to } of pageRanges(site)) {
    const rows = await site.db
      .selectFrom('crawl_pages')
      .select(['id', 'url', 'state', 'status_code', 'redirect_target', 'error', 'inlinks'])
      .where(inPageRange(site, from, to))
      .where('state', '=', 'done')
      .where(where)
      .execute();
    if (rows.length === 0) continue;
    const chains = await followRedirects(site, rows);
    for (const row of rows) {
      const finding = describe(row, chains.get(row.url)!);
      if (finding !== null) kept.add({ finding, id: row.id, inlinks: row.inlinks });
    }
  }
  const items = [];
  for (const { finding, id, inlinks } of kept.first()) {
    items.push({ ...finding, linked_from: inlinks > 0 ? await firstLinkingUrls(site, id) : [], linked_from_count: inlinks });
  }
  return { count: kept.count, items };
}

/** An analysed HTML page search engines may index under its own URL: a page canonicalised elsewhere has said which URL speaks for it. */
const INDEXABLE = sql<SqlBool>`crawl_pages.html = 1 and crawl_pages.noindex = 0 and (crawl_pages.canonical is null or crawl_pages.canonical = crawl_pages.url)`;

/**
 * The grouping behind duplicate_titles, duplicate_descriptions and duplicate_content: one item per
 * value that two or more indexable pages share, `{[key]: value, pages, page_count}`, largest groups
 * first. A missing value (null) is no value and never groups pages; the page checks report it.
 */
export async function duplicateGroups(site: StoredSite, key: string, column: 'title' | 'description' | 'text_hash'): Promise<SiteCheckOutcome> {
  const value = sql<string | null>`crawl_pages.${sql.ref(column)}`;
  return withPageGroups(site, { value, where: INDEXABLE }, async (groups) => {
    const kept = new KeptFindings<{ value: string; count: number; firstUrl: string }>(byPageCountThenUrl((group) => group.count, (group) => group.firstUrl));
    for await (const step of groups.groups(2)) for (const group of step) kept.add(group);
    const items = [];
    for (const group of kept.first()) items.push({ [key]: group.value, pages: await groups.firstUrls(group.value), page_count: group.count });
    return { count: kept.count, items };
  });
}
