// A crawled HTML page becomes a run of a report in the crawl's project: of the account's newest report
// for that exact URL, else of a new one (docs/crawls.md). The run, the page's row (its facts in
// columns), the URLs it links to added to the frontier (within its bound), its links' rows and its
// links to other hosts (checked later: crawl-external-work.ts) are stored in one transaction, in bulk
// statements, and only while the claim on the page holds: a claim that ran out (its process was
// thought dead) stores nothing, so each page is stored once. The same transaction claims the crawl's
// next page, so a page costs one commit, not two.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { Analysis, PageCrawlFacts } from '../analysis/types.ts';
import * as reportRepository from '../repositories/report.repository.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as frontierRepository from '../repositories/crawl-frontier.repository.ts';
import { claimNextPageWithin, type Claim, type ClaimedPage, type ClaimingCrawl, type ClaimLimits } from '../repositories/crawl-claim.repository.ts';
import { lockProject } from '../repositories/project.repository.ts';
import { storeExternalLinks } from '../repositories/crawl-external.repository.ts';
import { parseTargetUrl } from '../analysis/target-url.ts';
import { richResultErrorsColumn } from '../crawl/rich-result-column.ts';
import { ANALYSIS_IN_PROGRESS, addRunLocked, insertReportInProject, newReportRow } from './report-run.ts';

export interface CrawledPageInput {
  organizationId: number;
  crawl: Pick<CrawlRow, 'id' | 'project' | 'privacy' | 'max_pages' | 'external'>;
  /** the crawl's blocked sitemap URLs (the frontier's bound counts them) */
  blocked: number;
  claim: ClaimedPage;
  analysis: Analysis;
  /** the page's row outcome besides what the analysis gives (status, redirects) */
  outcome: Partial<frontierRepository.CrawlPageOutcome>;
  runsKept: number;
  /** PAGEGRADE_CRAWL_MAX_EXTERNAL: external URLs the crawl checks at most (default its default) */
  maxExternal?: number;
  /** claim the crawl's next page in the same transaction, with these limits (taken when it runs) */
  claimNext?: { crawl: ClaimingCrawl; limits: () => ClaimLimits };
}

interface StoredPage {
  /** false when the claim no longer held: nothing was stored */
  stored: boolean;
  /** the next page's claim, when asked for and the page was stored */
  next?: Claim;
}

/** PAGEGRADE_CRAWL_MAX_EXTERNAL's default, for a caller that does not give the setting. */
const DEFAULT_MAX_EXTERNAL = 10_000;

/**
 * The crawls (rows as a work job read them, once a slice) already seen at their external cap: it only
 * fills up, so their pages' new external URLs are stored unchecked without counting the crawl's again.
 */
const atExternalCap = new WeakSet<object>();

/** New URLs the crawl's frontier may still store: 20 × max_pages rows, blocked ones included. */
export function frontierRoom(crawl: Pick<CrawlRow, 'max_pages'>, counters: crawlRepository.CrawlCounters, blocked: number): number {
  const stored = counters.pages_found - counters.pages_unstored + blocked;
  return Math.max(0, crawlRepository.maxFrontierOf(crawl) - stored);
}

/** The page's facts as its row's columns. */
function factColumns(facts: PageCrawlFacts | undefined): Partial<frontierRepository.CrawlPageOutcome> {
  if (facts === undefined) return { html: 1 };
  return {
    html: 1,
    title: facts.title,
    noindex: facts.noindex ? 1 : 0,
    description: facts.description,
    canonical: facts.canonical,
    canonical_blocked: facts.canonicalBlocked ? 1 : 0,
    text_hash: facts.textHash,
    hreflang: facts.hreflang.length > 0 ? JSON.stringify(facts.hreflang) : null,
    links_dropped: facts.linksDropped ?? 0,
    rich_result_errors: richResultErrorsColumn(facts.richResultErrors ?? []),
  };
}

export async function storeCrawledPage(db: Kysely<Database>, input: CrawledPageInput): Promise<StoredPage> {
  const { organizationId, crawl, analysis, claim, claimNext } = input;
  const facts = analysis.crawlFacts;
  const now = new Date().toISOString();
  // Known once the transaction commits: a page whose store is undone filled nothing.
  let capReached = false;
  try {
    const result = await db.transaction().execute(async (trx) => {
      // Counted as crawled at once (undone with the rest when the claim no longer holds).
      const counters = await crawlRepository.lockCrawl(trx, crawl.id, 1);
      if (counters === undefined) throw new ClaimLost();
      // Then the project's row, as every change to a project's reports takes it (no lock cycles).
      await lockProject(trx, organizationId, crawl.project);
      const run = await storeRun(trx, input, now);
      const columns = { ...input.outcome, ...factColumns(facts), report_id: run.reportId, run_number: run.number, score: analysis.score, result: analysis.result };
      const stored = await frontierRepository.recordPage(trx, claim, columns, crawl.id);
      if (!stored) throw new ClaimLost();
      // A page known only from a sitemap has no click depth, and neither have the pages it leads to.
      const depth = claim.depth === null ? null : claim.depth + 1;
      // Links outside the crawl's include/exclude are stored unvisited (found, never fetched).
      const excluded = new Set(facts?.excluded);
      const links = (facts?.links ?? []).map((url) => ({ url, depth, inSitemap: false, reason: excluded.has(url) ? ('excluded' as const) : undefined }));
      const found = await frontierRepository.addFoundUrls(trx, crawl.id, links, frontierRoom(crawl, counters, input.blocked));
      const nofollow = new Set(facts?.nofollow ?? []);
      const targets = links.flatMap(({ url }) => {
        const toId = found.ids.get(url);
        return toId === undefined ? [] : [{ toId, nofollow: nofollow.has(url) }];
      });
      await frontierRepository.insertLinks(trx, crawl.id, claim.id, targets);
      // With external=0 nothing is stored, so nothing is ever sent to another host. An address that
      // is no page address (credentials, longer than 2,048 characters) is no link to check, as on the host.
      const externals = crawl.external === 1 ? (facts?.external ?? []).filter((url) => parseTargetUrl(url).ok) : [];
      const cap = { max: input.maxExternal ?? DEFAULT_MAX_EXTERNAL, reached: atExternalCap.has(crawl) };
      const { unchecked, capReached: filled } = await storeExternalLinks(trx, crawl.id, claim.id, externals, cap);
      capReached = filled;
      const limitReached = found.unstored > 0 || (facts?.linksDropped ?? 0) > 0 || unchecked > 0;
      await crawlRepository.countOnCrawl(trx, crawl.id, { found: found.added + found.unstored, unstored: found.unstored, limitReached });
      if (claimNext === undefined) return { stored: true };
      // The counters as this page left them: the claim checks the bounds against them.
      const after = { ...counters, pages_found: counters.pages_found + found.added + found.unstored, pages_unstored: counters.pages_unstored + found.unstored };
      return { stored: true, next: await claimNextPageWithin(trx, claimNext.crawl, claimNext.limits(), after) };
    });
    if (capReached) atExternalCap.add(crawl);
    return result;
  } catch (error) {
    if (error instanceof ClaimLost) return { stored: false };
    throw error;
  }
}

class ClaimLost extends Error {}

/**
 * The page's run: its report and the run's number, which the page's row keeps (a lab audit of the page
 * becomes part of that run: crawl-lab-work.ts).
 */
async function storeRun(trx: Kysely<Database>, input: CrawledPageInput, now: string): Promise<{ reportId: number; number: number }> {
  const { organizationId, analysis } = input;
  const { project } = input.crawl;
  const existingId = await reportRepository.findNewestReportIdOfUrl(trx, organizationId, analysis.url);
  if (existingId === null) {
    const report = { organizationId, url: analysis.url, project, privacy: input.crawl.privacy, passwordHash: null, scheduling: { schedule: 'off', next_run_at: null } };
    return { reportId: await insertReportInProject(trx, newReportRow(report, analysis, now), 'crawl'), number: 1 };
  }
  const current = await reportRepository.findReportRow(trx, organizationId, existingId);
  if (current === undefined) throw new Error(`report ${existingId} vanished inside its transaction`);
  // A report being analysed meanwhile keeps its state: its own job settles it.
  const inProgress = (ANALYSIS_IN_PROGRESS as readonly string[]).includes(current.state);
  const patch = inProgress ? { updated_at: now } : { state: 'done' as const, last_error: null, updated_at: now };
  await addRunLocked(trx, current, analysis, { trigger: 'crawl', keep: input.runsKept, patch, now });
  // addRun numbers it one past the last, read here after the project's row was locked.
  return { reportId: existingId, number: current.last_run_number + 1 };
}
