// One claimed URL of a crawl: fetched once (a redirect recorded, not followed), an HTML answer
// analysed and stored with its links (crawl-page-store.ts), anything else recorded as it answered.
// Whatever happens, the row moves to done exactly once, by the claim that holds it.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { FetchedPageAnalyzer } from '../analysis/analyze-url.ts';
import type { CrawlLinkOptions } from '../analysis/types.ts';
import type { OriginFacts, UndecodedPage } from '../fetch/types.ts';
import type { CrawlRobots } from '../crawl/crawl-robots.ts';
import { crawlUrl, paramStripper } from '../crawl/crawl-url.ts';
import { crawlScope, scopeSettingsOf } from '../crawl/crawl-scope.ts';
import { crawlFetchOptions } from '../crawl/crawl-requests.ts';
import { fetchForCrawl } from '../crawl/fetch-for-crawl.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as frontierRepository from '../repositories/crawl-frontier.repository.ts';
import type { Claim, ClaimedPage, ClaimLimits } from '../repositories/crawl-claim.repository.ts';
import { deferHost } from '../repositories/crawl-host.repository.ts';
import { frontierRoom, storeCrawledPage } from './crawl-page-store.ts';
import type { CrawlJobSettings } from './crawl-work-queue.ts';

/** Claims a page may have before it is recorded as failed: a page that kills its process each time. */
const MAX_PAGE_ATTEMPTS = 3;
/** Redirects in a row a crawl follows; the next target is stored unvisited ('limit'). */
const MAX_REDIRECTS_IN_A_ROW = 10;
/** Distinct link targets of a page recorded; the rest are counted in its links_dropped. */
const MAX_LINKS_PER_PAGE = 1_000;

/** What a crawl read when it started, as each process keeps it (parsed once). */
export interface CrawlSite {
  originFacts: OriginFacts;
  robots: CrawlRobots;
  /** sitemap URLs stored as blocked: the frontier's bound counts them */
  blocked: number;
}

export function createPageWork(db: Kysely<Database>, analyze: FetchedPageAnalyzer, settings: CrawlJobSettings, claimLimits: () => ClaimLimits) {
  async function recordFailure(crawl: CrawlRow, claim: ClaimedPage, outcome: Partial<frontierRepository.CrawlPageOutcome>): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await crawlRepository.lockCrawl(trx, crawl.id);
      if (await frontierRepository.recordPage(trx, claim, outcome, crawl.id)) await crawlRepository.countOnCrawl(trx, crawl.id, { failed: 1 });
    });
  }

  /**
   * An answer that is not an analysed page; `target`: where a redirect on the host leads (null: none).
   * The target is a URL of the frontier at the same depth (a redirect is no click), one redirect
   * further in its row; past the bound, or outside the crawl's scope, it is stored but never fetched.
   */
  async function recordAnswer(crawl: CrawlRow, site: CrawlSite, claim: ClaimedPage, target: string | null, outcome: Partial<frontierRepository.CrawlPageOutcome>): Promise<void> {
    const allowed = target !== null && (await site.robots.allowed([target]))[0];
    const redirects = claim.redirects + 1;
    const { include, exclude } = scopeSettingsOf(crawl);
    const excluded = target !== null && !crawlScope(include, exclude).allows(target);
    // An excluded URL is the caller's choice, not a bound: it says nothing of limit_reached.
    const tooMany = !excluded && redirects > MAX_REDIRECTS_IN_A_ROW;
    const reason = excluded ? ('excluded' as const) : tooMany ? ('limit' as const) : undefined;
    const next = allowed ? [{ url: target, depth: claim.depth, inSitemap: false, redirects, reason }] : [];
    await db.transaction().execute(async (trx) => {
      const counters = await crawlRepository.lockCrawl(trx, crawl.id);
      if (counters === undefined || !(await frontierRepository.recordPage(trx, claim, outcome, crawl.id))) return;
      const found = await frontierRepository.addFoundUrls(trx, crawl.id, next, frontierRoom(crawl, counters, site.blocked));
      const limitReached = found.unstored > 0 || (tooMany && found.added > 0);
      await crawlRepository.countOnCrawl(trx, crawl.id, { found: found.added + found.unstored, unstored: found.unstored, limitReached });
    });
  }

  async function analyzeAndStore(crawl: CrawlRow, site: CrawlSite, claim: ClaimedPage, page: UndecodedPage, outcome: Partial<frontierRepository.CrawlPageOutcome>, claimNext: boolean): Promise<Claim | undefined> {
    const { originFacts, robots } = site;
    // The analysis keeps the page's links the crawl records: normalised without strip_params, on the
    // host, robots-allowed, the first 1,000 distinct targets, those outside the scope marked (matched
    // off the main thread).
    const { include, exclude, stripParams } = scopeSettingsOf(crawl);
    const crawlLinks: CrawlLinkOptions = { host: crawl.project, robotsTxt: robots.text, robotsToken: robots.token, maxLinks: MAX_LINKS_PER_PAGE, stripParams, include, exclude };
    const request = { render: crawl.render === 1, crawl: crawlLinks };
    const analysis = await analyze(page, originFacts, request);
    const { next } = await storeCrawledPage(db, {
      userId: crawl.user_id,
      crawl,
      blocked: site.blocked,
      claim,
      analysis,
      outcome,
      runsKept: settings.runsKept,
      maxExternal: settings.maxExternal,
      claimNext: claimNext ? { crawl, limits: claimLimits } : undefined,
    });
    return next;
  }

  /**
   * Everything the crawl learns from one URL; stores it, or nothing when the claim ran out meanwhile.
   * An analysed page's store claims the next page too when `claimNext` (one commit a page): its claim.
   */
  return async function crawlPage(crawl: CrawlRow, site: CrawlSite, claim: ClaimedPage, claimNext: boolean): Promise<Claim | undefined> {
    if (claim.attempts > MAX_PAGE_ATTEMPTS) {
      await recordFailure(crawl, claim, { error: `The page could not be crawled in ${MAX_PAGE_ATTEMPTS} attempts.` });
      return undefined;
    }
    const requests = crawlFetchOptions(crawl, settings.fetch, settings.secrets);
    if (!requests.ok) {
      await recordFailure(crawl, claim, { error: requests.error });
      return undefined;
    }
    const fetched = await fetchForCrawl(claim.url, requests.options);
    switch (fetched.kind) {
      case 'failed':
        await recordFailure(crawl, claim, { error: fetched.error });
        return undefined;
      case 'wait': {
        // Taken again later, by a claim of its own (the retry is another request on the budget).
        await deferHost(db, crawl.project, new Date(Date.now() + fetched.retryAfterMs).toISOString());
        if (claim.attempts < MAX_PAGE_ATTEMPTS) await frontierRepository.releasePage(db, claim);
        else await recordAnswer(crawl, site, claim, null, { status_code: fetched.statusCode });
        return undefined;
      }
      case 'answered': {
        // The project is the crawled host (with its port).
        const strip = paramStripper(scopeSettingsOf(crawl).stripParams);
        const target = fetched.redirectTarget === null ? null : crawlUrl(fetched.redirectTarget, crawl.project, strip);
        const outcome = {
          status_code: fetched.statusCode,
          redirect_target: target ?? fetched.redirectTarget,
          content_type: fetched.contentType,
          error: fetched.error,
        };
        if (fetched.page !== null) return analyzeAndStore(crawl, site, claim, fetched.page, outcome, claimNext);
        if (fetched.error !== null) await recordFailure(crawl, claim, outcome);
        else await recordAnswer(crawl, site, claim, target, outcome);
        return undefined;
      }
    }
  };
}
