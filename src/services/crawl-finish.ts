// Ending a crawl once no page is left to take and no external URL to check (crawl-jobs.ts waits for
// them): every URL left waiting gets its reason, each page's inlinks are stored, the site checks that
// apply run over the stored crawl, and the site's score (the mean page score; at most decent while a
// high-importance site check finds anything), its findings and whether a bound cut it short are
// stored at once, only by the one job that moves the crawl out of running.
//
// All of it runs on the calling thread as bounded statements (src/crawl/site-scan.ts), the event loop
// served between them, rather than on a thread of its own: SQLite has one writer, so a thread's long
// write would stall the main thread's writers in their busy wait anyway; the same code serves
// PostgreSQL and SQLite files and ':memory:' databases; and a million-page crawl's finish is a few
// thousand statements of milliseconds each (bench/site-checks-scale.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import { runSiteChecks, siteChecks, type SiteCheckFailureLogger } from '../crawl/site-checks/index.ts';
import { brokenExternalLinks, brokenExternalLinksApply } from '../crawl/site-checks/broken-external-links.ts';
import { storeInlinks } from '../crawl/site-links.ts';
import { pagesByUrl } from '../crawl/site-redirects.ts';
import { openStoredSite } from '../crawl/site-scan.ts';
import { settleUnvisited, summarise } from '../crawl/site-summary.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as crawlIssueRepository from '../repositories/crawl-issue.repository.ts';
import { verdictFor } from '../scoring/score.ts';

/** Stores the crawl's findings and ends it; false when another job ended (or someone cancelled) it first. */
/**
 * How long one job's turn to finish a crawl lasts. The other work jobs, finding it taken, end their
 * chains, so no job runs the finish again while its holder lives, however long it takes; when the
 * holder's process died, the lost-job sweep queues the crawl's work again and the first job after the
 * turn ran out finishes the crawl.
 */
const FINISH_TURN_MS = 2 * 60_000;

export async function finishCrawl(db: Kysely<Database>, crawl: CrawlRow, onCheckFailure?: SiteCheckFailureLogger): Promise<boolean> {
  // The row as it is now: its requests counted up to the last page.
  const current = (await crawlRepository.findCrawlById(db, crawl.id)) ?? crawl;
  if (current.state !== 'running') return false;
  // Every work job of the crawl goes idle at about the same moment: one finishes, the others leave.
  const now = Date.now();
  if (!(await crawlRepository.takeFinishTurn(db, crawl.id, new Date(now).toISOString(), new Date(now + FINISH_TURN_MS).toISOString()))) return false;
  const site = await openStoredSite(db, crawl.id, crawl.url);
  await settleUnvisited(site, current);
  await storeInlinks(site);
  const summary = await summarise(site);
  const results = await runSiteChecks(site, onCheckFailure, checksFor(current));

  const issues = Object.entries(results).map(([id, result]) => ({
    check_id: id,
    importance: result.importance,
    count: result.count,
    items: JSON.stringify(result.items),
  }));
  const counts = { high: 0, medium: 0, low: 0 };
  for (const result of Object.values(results)) counts[result.importance] += result.count;

  const score = summary.scored === 0 ? null : Math.round(summary.scoreSum / summary.scored);
  let result = score === null ? null : verdictFor(score);
  if (result === 'good' && counts.high > 0) result = 'decent';
  const limitReached = current.limit_reached === 1 || current.pages_unstored > 0 || summary.cutShort ? 1 : 0;

  const failed = score === null;
  const startPage = failed ? (await pagesByUrl(site, [crawl.url])).get(crawl.url) : undefined;
  const startError = startPage ? (await db.selectFrom('crawl_pages').select('error').where('id', '=', startPage.id).executeTakeFirst())?.error : null;
  const error = failed
    ? `No HTML page could be crawled${startError ? `: ${startError}` : startPage?.status_code ? ` (the start page answered ${startPage.status_code})` : '.'}`
    : null;
  try {
    await db.transaction().execute(async (trx) => {
      await crawlRepository.lockCrawl(trx, crawl.id);
      await crawlIssueRepository.storeFindings(trx, crawl.id, issues);
      const moved = await crawlRepository.moveCrawlState(trx, crawl.id, ['running'], failed ? 'failed' : 'done', {
        score,
        result,
        issues_high: counts.high,
        issues_medium: counts.medium,
        issues_low: counts.low,
        limit_reached: limitReached,
        error,
        finished_at: new Date().toISOString(),
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

/** The site checks that apply to the crawl: with external=0 no external link was checked, so none is judged. */
function checksFor(crawl: CrawlRow) {
  return brokenExternalLinksApply(crawl) ? siteChecks : siteChecks.filter((check) => check !== brokenExternalLinks);
}
