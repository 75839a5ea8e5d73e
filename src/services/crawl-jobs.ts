// The background work of a crawl (docs/crawls.md, "The work"): the page pipeline run many times.
// `crawl.start` reads robots.txt and the origin's facts and seeds the frontier (start page, sitemaps);
// then a few `crawl.work` jobs, on any process of either queue engine, each take pages from the
// frontier one at a time for a slice of time and queue their own continuation. Politeness is decided by
// the claim in the database (per-host concurrency, Crawl-delay, Retry-After), so it holds however many
// jobs and machines take part; a job that dies leaves its page's claim to run out, and the page is
// taken again.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { FetchedPageAnalyzer } from '../analysis/analyze-url.ts';
import { addressPolicy } from '../fetch/address-guard.ts';
import { fetchRobotsTxt, gatherOriginFactsOneAtATime } from '../fetch/origin-facts.ts';
import type { FetchOptions } from '../fetch/options.ts';
import type { AuxResponse, OriginFacts, UndecodedPage } from '../fetch/types.ts';
import { crawlRobots, type CrawlRobots } from '../crawl/crawl-robots.ts';
import { crawlUrl } from '../crawl/crawl-url.ts';
import { fetchForCrawl } from '../crawl/fetch-for-crawl.ts';
import { readSitemapUrls } from '../crawl/sitemap-urls.ts';
import { finishCrawl } from './crawl-finish.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import { storeCrawledPage } from './crawl-page-store.ts';
import { toCrawl, type Crawl } from './crawl-view.ts';
import { crawlWorkJobId } from './job-ids.ts';

export interface CrawlJob {
  [key: string]: number;
  crawlId: number;
  /**
   * The crawl's job generation the job belongs to (job-ids.ts): a job of an older one (its crawl was
   * resumed after its jobs were lost) does nothing. Absent in jobs queued before generations: 0.
   */
  generation: number;
}

/** A `crawl.work` job: one of the crawl's chains (`slot`), and which of its two ids it has (`turn`). */
export interface CrawlWorkJob extends CrawlJob {
  /** Absent in jobs queued before chains had ids: their continuations have none either. */
  slot: number;
  turn: number;
}

/** Tells subscribers a crawl ended (crawl.completed); never throws into the caller's work. */
export type CrawlNotifier = (accountId: number, crawl: () => Promise<Crawl | undefined>) => Promise<void>;

export interface CrawlJobSettings {
  fetch: FetchOptions;
  /** PAGEGRADE_CRAWL_CONCURRENCY: requests at once to the crawled host, across every process */
  concurrency: number;
  runsKept: number;
  /** how long a claim on a page lasts: past it, the page is taken again (its process is thought dead) */
  claimMs: number;
  /** how long one work job takes pages before it queues its continuation */
  sliceMs: number;
}

/** Claims a page may have before it is recorded as failed: a page that kills its process each time. */
const MAX_PAGE_ATTEMPTS = 3;
/** Wait while other jobs fetch the pages that may add more, or while the host's turn comes. */
const IDLE_POLL_MS = 100;
/** Crawls whose origin facts and robots.txt a process keeps parsed (a few run at once). */
const MAX_CRAWLS_REMEMBERED = 50;
const MAX_SITEMAP_FILES = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(1, ms)));

type Enqueue = (kind: 'crawl.work', payload: CrawlWorkJob, options: { jobId?: string }) => Promise<void>;

/** Queues the first job of each of a crawl's `slots` chains of work, in the crawl's `generation`. */
export async function queueCrawlWork(enqueue: Enqueue, crawlId: number, generation: number, slots: number): Promise<void> {
  for (let slot = 0; slot < slots; slot++) {
    await enqueue('crawl.work', { crawlId, generation, slot, turn: 0 }, { jobId: crawlWorkJobId(crawlId, generation, slot, 0) });
  }
}

/** Whether a job belongs to its crawl's current job generation. */
const current = (crawl: CrawlRow, job: CrawlJob): boolean => crawl.job_generation === (job.generation ?? 0);

export function createCrawlJobs(db: Kysely<Database>, analyze: FetchedPageAnalyzer, enqueue: Enqueue, notify: CrawlNotifier, settings: CrawlJobSettings) {
  const robotsOf = (robotsTxt: AuxResponse) =>
    crawlRobots(robotsTxt.statusCode === 200 ? robotsTxt.body : null, settings.fetch.userAgent);
  // The origin's facts the crawl read when it started, and the robots.txt among them, parsed once per
  // crawl and process: every page of the crawl is analysed with them and obeys it.
  const readAtStart = new Map<number, { originFacts: OriginFacts; robots: CrawlRobots }>();
  const siteOf = (crawl: CrawlRow) => {
    let site = readAtStart.get(crawl.id);
    if (site === undefined) {
      if (crawl.origin_facts === null) throw new Error(`crawl ${crawl.id} is running without the origin's facts`);
      const originFacts = JSON.parse(crawl.origin_facts) as OriginFacts;
      site = { originFacts, robots: robotsOf(originFacts.robotsTxt) };
      if (readAtStart.size >= MAX_CRAWLS_REMEMBERED) readAtStart.clear();
      readAtStart.set(crawl.id, site);
    }
    return site;
  };

  async function end(crawl: CrawlRow): Promise<void> {
    if (await finishCrawl(db, crawl, siteOf(crawl).robots)) {
      await notify(crawl.user_id, async () => {
        const row = await crawlRepository.findCrawlById(db, crawl.id);
        return row && toCrawl(row);
      });
    }
  }

  const claimLimits = (): crawlRepository.ClaimLimits => {
    const now = Date.now();
    return { now: new Date(now).toISOString(), leaseUntil: new Date(now + settings.claimMs).toISOString(), concurrency: settings.concurrency };
  };

  /**
   * Everything the crawl learns from one URL; stores it, or nothing when the claim ran out meanwhile.
   * An analysed page's store claims the next page too when `claimNext` (one commit a page): its claim.
   */
  async function crawlPage(crawl: CrawlRow, claim: crawlRepository.ClaimedPage, claimNext: boolean): Promise<crawlRepository.Claim | undefined> {
    if (claim.attempts > MAX_PAGE_ATTEMPTS) {
      await recordFailure(crawl, claim, { error: `The page could not be crawled in ${MAX_PAGE_ATTEMPTS} attempts.` });
      return undefined;
    }
    const { robots } = siteOf(crawl);
    const fetched = await fetchForCrawl(claim.url, settings.fetch);
    switch (fetched.kind) {
      case 'failed':
        await recordFailure(crawl, claim, { error: fetched.error });
        return undefined;
      case 'wait': {
        await crawlRepository.deferHost(db, crawl.project, new Date(Date.now() + fetched.retryAfterMs).toISOString());
        if (claim.attempts < MAX_PAGE_ATTEMPTS) await crawlRepository.releasePage(db, claim);
        else await crawlRepository.recordPage(db, claim, { status_code: fetched.statusCode });
        return undefined;
      }
      case 'answered': {
        // The project is the crawled host (with its port).
        const target = fetched.redirectTarget === null ? null : crawlUrl(fetched.redirectTarget, crawl.project);
        const outcome = {
          status_code: fetched.statusCode,
          redirect_target: target ?? fetched.redirectTarget,
          content_type: fetched.contentType,
          error: fetched.error,
        };
        if (fetched.page !== null) return analyzeAndStore(crawl, claim, fetched.page, outcome, claimNext);
        if (fetched.error !== null) {
          await recordFailure(crawl, claim, outcome);
          return undefined;
        }
        // A redirect on the host leads to a URL of the frontier, at the same depth (it is no click).
        const next = target !== null && robots.allows(target) ? [{ url: target, depth: claim.depth, inSitemap: false, seeded: claim.seeded === 1 }] : [];
        await db.transaction().execute(async (trx) => {
          await crawlRepository.lockCrawl(trx, crawl.id);
          if (!(await crawlRepository.recordPage(trx, claim, outcome))) return;
          const found = await crawlRepository.addToFrontier(trx, crawl.id, next);
          await crawlRepository.countOnCrawl(trx, crawl.id, { found });
        });
        return undefined;
      }
    }
  }

  async function recordFailure(crawl: CrawlRow, claim: crawlRepository.ClaimedPage, outcome: Partial<crawlRepository.CrawlPageOutcome>): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await crawlRepository.lockCrawl(trx, crawl.id);
      if (await crawlRepository.recordPage(trx, claim, outcome)) await crawlRepository.countOnCrawl(trx, crawl.id, { failed: 1 });
    });
  }

  async function analyzeAndStore(
    crawl: CrawlRow,
    claim: crawlRepository.ClaimedPage,
    page: UndecodedPage,
    outcome: Partial<crawlRepository.CrawlPageOutcome>,
    claimNext: boolean,
  ): Promise<crawlRepository.Claim | undefined> {
    const { originFacts, robots } = siteOf(crawl);
    const analysis = await analyze(page, originFacts, { render: crawl.render === 1 });
    // A page known only from a sitemap has no click depth, and neither have the pages it leads to (they
    // are counted as found; the claim leaves them be unless a click path reaches them).
    const depth = claim.depth === null ? null : claim.depth + 1;
    const links = (analysis.crawlFacts?.links ?? []).flatMap((link) => {
      const url = crawlUrl(link, crawl.project);
      return url !== null && robots.allows(url) ? [{ url, depth, inSitemap: false }] : [];
    });
    const { next } = await storeCrawledPage(db, {
      userId: crawl.user_id,
      crawlId: crawl.id,
      project: crawl.project,
      privacy: crawl.privacy,
      claim,
      analysis,
      outcome,
      links,
      runsKept: settings.runsKept,
      claimNext: claimNext ? { crawl, limits: claimLimits } : undefined,
    });
    return next;
  }

  /** Queues the next job of a work job's chain, under the chain's other id. */
  function continueChain(job: CrawlWorkJob): Promise<void> {
    // A job queued before chains had ids (no slot) goes on as it was queued.
    if (job.slot === undefined) return enqueue('crawl.work', job, {});
    const turn = 1 - job.turn;
    return enqueue('crawl.work', { ...job, turn }, { jobId: crawlWorkJobId(job.crawlId, job.generation, job.slot, turn) });
  }

  return {
    /** `crawl.start`: robots.txt, then the frontier's seeds, then the work jobs. Safe to run again. */
    async start(job: CrawlJob): Promise<void> {
      const { crawlId } = job;
      const crawl = await crawlRepository.findCrawlById(db, crawlId);
      if (crawl === undefined || (crawl.state !== 'queued' && crawl.state !== 'running') || !current(crawl, job)) return;
      const origin = new URL(crawl.url).origin;
      const context = { options: settings.fetch, policy: addressPolicy(settings.fetch), signal: AbortSignal.timeout(settings.fetch.timeoutMs * 3) };
      const robotsAnswer = await fetchRobotsTxt(origin, context);
      const robots = robotsOf(robotsAnswer);
      const now = new Date().toISOString();
      if (!robots.allows(crawl.url)) {
        const error = 'robots.txt does not allow the start page to be crawled.';
        await crawlRepository.moveCrawlState(db, crawl.id, ['queued', 'running'], 'failed', { error, started_at: now, finished_at: now });
        await notify(crawl.user_id, async () => toCrawl({ ...crawl, state: 'failed', error, started_at: now, finished_at: now }));
        return;
      }
      // What the page checks need from the origin, one request at a time (the host's limit holds from the
      // start), kept with the crawl for every page it analyses.
      const originFacts = await gatherOriginFactsOneAtATime(crawl.url, context, robotsAnswer);
      const seeds: crawlRepository.FrontierEntry[] = [{ url: crawl.url, depth: 0, inSitemap: false }];
      // Sitemap URLs robots.txt disallows are never fetched, but sitemap_entries names them.
      const blocked: crawlRepository.FrontierEntry[] = [];
      if (crawl.use_sitemap === 1) {
        const robotsTxt = robotsAnswer.statusCode === 200 ? robotsAnswer.body : null;
        const listed = await readSitemapUrls({ origin, robotsTxt, host: crawl.project }, context, { maxUrls: crawl.max_pages, maxSitemaps: MAX_SITEMAP_FILES });
        for (const url of listed.urls) {
          if (url === crawl.url) seeds[0].inSitemap = true;
          else if (robots.allows(url)) seeds.push({ url, depth: null, inSitemap: true, seeded: true });
          else blocked.push({ url, depth: null, inSitemap: true, blocked: true });
        }
      }
      await crawlRepository.addHost(db, crawl.project, now);
      await db.transaction().execute(async (trx) => {
        await crawlRepository.lockCrawl(trx, crawl.id);
        const found = await crawlRepository.addToFrontier(trx, crawl.id, seeds);
        await crawlRepository.addToFrontier(trx, crawl.id, blocked);
        await crawlRepository.countOnCrawl(trx, crawl.id, { found });
        await crawlRepository.moveCrawlState(trx, crawl.id, ['queued', 'running'], 'running', {
          origin_facts: JSON.stringify(originFacts),
          crawl_delay_ms: robots.delayMs,
          started_at: crawl.started_at ?? now,
        });
      });
      await queueCrawlWork(enqueue, crawlId, crawl.job_generation, settings.concurrency);
    },

    /** `crawl.work`: takes pages until the slice is over, then queues its continuation; or ends the crawl. */
    async work(job: CrawlWorkJob): Promise<void> {
      const { crawlId } = job;
      const sliceEnd = Date.now() + settings.sliceMs;
      // Read once a slice: what a claim needs of it does not change once the crawl runs, and the claim
      // itself says when the crawl is no longer running.
      const crawl = await crawlRepository.findCrawlById(db, crawlId);
      if (crawl === undefined || crawl.state !== 'running' || !current(crawl, job)) return;
      // The claim a stored page brought with it, if any: otherwise a claim of its own.
      let claim: crawlRepository.Claim | undefined;
      for (;;) {
        if (claim === undefined) {
          if (Date.now() >= sliceEnd) return continueChain(job);
          claim = await crawlRepository.claimNextPage(db, crawl, claimLimits());
        }
        if ('stopped' in claim) return;
        if ('claimed' in claim) {
          claim = await crawlPage(crawl, claim.claimed, Date.now() < sliceEnd);
          continue;
        }
        // The host's turn comes at retryAt (Crawl-delay, Retry-After); with every slot taken, soon.
        if ('busy' in claim) await sleep(Math.min(Math.max(Date.parse(claim.retryAt) - Date.now(), IDLE_POLL_MS / 2), sliceEnd - Date.now(), 1_000));
        else if (claim.inFlight > 0) await sleep(IDLE_POLL_MS);
        else return end(crawl);
        claim = undefined;
      }
    },

    /** The queue gave a job up: the crawl fails if it never started; a work job's crawl goes on. */
    async giveUp(kind: 'crawl.start' | 'crawl.work', job: CrawlJob | CrawlWorkJob, error: string): Promise<void> {
      const { crawlId } = job;
      const crawl = await crawlRepository.findCrawlById(db, crawlId);
      // A job of an older generation: the crawl's current jobs carry on without it.
      if (crawl === undefined || !current(crawl, job)) return;
      if (kind === 'crawl.start') {
        const now = new Date().toISOString();
        const failed = await crawlRepository.moveCrawlState(db, crawlId, ['queued', 'running'], 'failed', { error: `The crawl could not start: ${error}`, finished_at: now });
        const ended = failed ? await crawlRepository.findCrawlById(db, crawlId) : undefined;
        if (ended !== undefined) await notify(ended.user_id, async () => toCrawl(ended));
        return;
      }
      // The page it kept failing on is recorded as failed once its attempts run out; the rest goes on.
      if (crawl.state === 'running') await continueChain(job as CrawlWorkJob);
    },
  };
}
