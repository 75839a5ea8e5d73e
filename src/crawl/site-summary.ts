// What the finish of a crawl reads and settles over all its pages, a page range at a time: why each
// URL still waiting was never fetched, whether a bound cut the crawl short, and the pages' scores.
import { sql } from 'kysely';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import { inPageRange, pageRanges, type StoredSite } from './site-scan.ts';

export interface SiteSummary {
  /** the sum and number of page scores (analysed pages) */
  scoreSum: number;
  scored: number;
  /** some URL went unvisited for a bound, or some page's links were dropped */
  cutShort: boolean;
}

/**
 * Gives every URL still waiting without a reason its reason (nothing is left to claim): past
 * max_depth, else the host's request budget spent ('limit'), else max_pages.
 */
export async function settleUnvisited(site: StoredSite, crawl: Pick<CrawlRow, 'max_depth' | 'max_pages' | 'requests'>): Promise<void> {
  const budgetSpent = crawl.requests >= 2 * crawl.max_pages + 50;
  const otherwise = budgetSpent ? 'limit' : 'max_pages';
  for await (const { from, to } of pageRanges(site)) {
    await site.db
      .updateTable('crawl_pages')
      .set({ reason: sql`case when depth > ${crawl.max_depth} then 'max_depth' else ${otherwise} end` })
      .where(inPageRange(site, from, to))
      .where('state', '=', 'pending')
      .where('reason', 'is', null)
      .execute();
  }
}

export async function summarise(site: StoredSite): Promise<SiteSummary> {
  const summary: SiteSummary = { scoreSum: 0, scored: 0, cutShort: false };
  for await (const { from, to } of pageRanges(site)) {
    const row = await site.db
      .selectFrom('crawl_pages')
      .select((eb) => [
        eb.fn.sum<number | string | null>('score').as('score_sum'),
        eb.fn.count<number | string>('score').as('scored'),
        eb.fn
          .max<number | string | null>(sql`case when reason in ('max_pages', 'max_depth', 'limit') or links_dropped > 0 then 1 else 0 end`)
          .as('cut_short'),
      ])
      .where(inPageRange(site, from, to))
      .executeTakeFirstOrThrow();
    summary.scoreSum += Number(row.score_sum ?? 0);
    summary.scored += Number(row.scored);
    if (Number(row.cut_short ?? 0) === 1) summary.cutShort = true;
  }
  return summary;
}
