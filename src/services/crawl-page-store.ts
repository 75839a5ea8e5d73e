// A crawled HTML page becomes a run of a report in the crawl's project: of the account's newest report
// for that exact URL, else of a new one (docs/crawls.md). The run, the page's row and the links
// it adds to the frontier are stored in one transaction, and only while the claim on the page holds:
// a claim that ran out (its process was thought dead) stores nothing, so each page is stored once.
// The same transaction claims the crawl's next page, so a page costs one commit, not two.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Analysis } from '../analysis/types.ts';
import * as reportRepository from '../repositories/report.repository.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import { lockProject } from '../repositories/project.repository.ts';
import { ANALYSIS_IN_PROGRESS, addRunLocked, insertReportInProject, newReportRow } from './report-run.ts';

export interface CrawledPageInput {
  userId: number;
  crawlId: number;
  project: string;
  privacy: number;
  claim: crawlRepository.ClaimedPage;
  analysis: Analysis;
  /** the page's row outcome besides what the analysis gives (status, redirects) */
  outcome: Partial<crawlRepository.CrawlPageOutcome>;
  /** links the page adds to the frontier */
  links: crawlRepository.FrontierEntry[];
  runsKept: number;
  /** claim the crawl's next page in the same transaction, with these limits (taken when it runs) */
  claimNext?: { crawl: crawlRepository.ClaimingCrawl; limits: () => crawlRepository.ClaimLimits };
}

interface StoredPage {
  /** false when the claim no longer held: nothing was stored */
  stored: boolean;
  /** the next page's claim, when asked for and the page was stored */
  next?: crawlRepository.Claim;
}

export async function storeCrawledPage(db: Kysely<Database>, input: CrawledPageInput): Promise<StoredPage> {
  const { userId, project, analysis, claim, claimNext } = input;
  const now = new Date().toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
      // Counted as crawled at once (undone with the rest when the claim no longer holds).
      const counters = await crawlRepository.lockCrawl(trx, input.crawlId, 1);
      // Then the project's row, as every change to a project's reports takes it (no lock cycles).
      await lockProject(trx, userId, project);
      const reportId = await storeRun(trx, input, now);
      const stored = await crawlRepository.recordPage(trx, claim, {
        ...input.outcome,
        title: analysis.crawlFacts?.title ?? null,
        report_id: reportId,
        score: analysis.score,
        result: analysis.result,
        facts: JSON.stringify(analysis.crawlFacts ?? null),
      });
      if (!stored) throw new ClaimLost();
      const found = await crawlRepository.addToFrontier(trx, input.crawlId, input.links);
      await crawlRepository.countOnCrawl(trx, input.crawlId, { found });
      if (claimNext === undefined) return { stored: true };
      return { stored: true, next: await crawlRepository.claimNextPageWithin(trx, claimNext.crawl, claimNext.limits(), counters) };
    });
  } catch (error) {
    if (error instanceof ClaimLost) return { stored: false };
    throw error;
  }
}

class ClaimLost extends Error {}

async function storeRun(trx: Kysely<Database>, input: CrawledPageInput, now: string): Promise<number> {
  const { userId, project, analysis } = input;
  const existingId = await crawlRepository.latestReportIdFor(trx, userId, analysis.url);
  if (existingId === undefined) {
    const report = { userId, url: analysis.url, project, privacy: input.privacy, passwordHash: null, scheduling: { schedule: 'off', next_run_at: null } };
    return insertReportInProject(trx, newReportRow(report, analysis, now), 'crawl');
  }
  const current = await reportRepository.findReportRow(trx, userId, existingId);
  if (current === undefined) throw new Error(`report ${existingId} vanished inside its transaction`);
  // A report being analysed meanwhile keeps its state: its own job settles it.
  const inProgress = (ANALYSIS_IN_PROGRESS as readonly string[]).includes(current.state);
  const patch = inProgress ? { updated_at: now } : { state: 'done' as const, last_error: null, updated_at: now };
  await addRunLocked(trx, current, analysis, { trigger: 'crawl', keep: input.runsKept, patch, now });
  return existingId;
}
