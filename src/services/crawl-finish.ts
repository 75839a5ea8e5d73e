// Ending a crawl once no page is left to take: the site checks over every page's facts, each page's
// inlinks, the site's score (the mean page score; at most decent while a high-importance site check
// finds anything), all stored at once, and only by the one job that moves the crawl out of running.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import { runSiteChecks } from '../checks/site/index.ts';
import type { CrawlRobots } from '../crawl/crawl-robots.ts';
import { buildSite } from '../crawl/site-facts.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import { verdictFor } from '../scoring/score.ts';

/** Stores the crawl's findings and ends it; false when another job ended (or someone cancelled) it first. */
export async function finishCrawl(db: Kysely<Database>, crawl: CrawlRow, robots: CrawlRobots, onCheckFailure?: (checkId: string, error: unknown) => void): Promise<boolean> {
  const rows: crawlRepository.SitePageRow[] = [];
  for await (const batch of crawlRepository.sitePages(db, crawl.id)) rows.push(...batch);
  const site = buildSite(crawl.url, rows, (url) => !robots.allows(url));
  const results = runSiteChecks(site.facts, onCheckFailure);

  const issues = Object.entries(results).map(([id, result]) => ({
    check_id: id,
    importance: result.importance,
    count: result.count,
    items: JSON.stringify(result.items),
  }));
  const counts = { high: 0, medium: 0, low: 0 };
  for (const result of Object.values(results)) counts[result.importance] += result.count;

  const scores = rows.flatMap((row) => (row.score === null ? [] : [row.score]));
  const score = scores.length === 0 ? null : Math.round(scores.reduce((sum, value) => sum + value, 0) / scores.length);
  let result = score === null ? null : verdictFor(score);
  if (result === 'good' && counts.high > 0) result = 'decent';

  const inlinks = new Map<number, number>();
  site.inlinks.forEach((count, index) => {
    if (count > 0) inlinks.set(site.rowIds[index], count);
  });
  const now = new Date().toISOString();
  const failed = score === null;
  const startPage = rows.find((row) => row.url === crawl.url);
  const error = failed ? `No HTML page could be crawled${startPage?.error ? `: ${startPage.error}` : startPage?.status_code ? ` (the start page answered ${startPage.status_code})` : '.'}` : null;
  try {
    await db.transaction().execute(async (trx) => {
      await crawlRepository.lockCrawl(trx, crawl.id);
      await crawlRepository.storeFindings(trx, crawl.id, issues, inlinks);
      const moved = await crawlRepository.moveCrawlState(trx, crawl.id, ['running'], failed ? 'failed' : 'done', {
        score,
        result,
        issues_high: counts.high,
        issues_medium: counts.medium,
        issues_low: counts.low,
        error,
        finished_at: now,
      });
      if (!moved) throw new AlreadyEnded();
    });
  } catch (error) {
    if (error instanceof AlreadyEnded) return false;
    throw error;
  }
  return true;
}

class AlreadyEnded extends Error {}
