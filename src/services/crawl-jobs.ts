// The background work of a crawl (docs/crawls.md, "The work"): the page pipeline run many times.
// `crawl.start` (crawl-start.ts) reads robots.txt and the origin's facts and seeds the frontier (start
// page, sitemaps); then a few `crawl.work` jobs, on any process of either queue engine, each take pages
// from the frontier one at a time (crawl-page-work.ts) for a slice of time and queue their own
// continuation. Politeness and the request budget are decided by the claim in the database (per-host
// concurrency, Crawl-delay, Retry-After, 2 × max_pages + 50 requests), so they hold however many jobs
// and machines take part; a job that dies leaves its page's claim to run out, and the page is taken again.
// A job with no page to take checks the crawl's external links meanwhile (crawl-external-work.ts), and
// the crawl ends only once no page is being fetched and no external URL is left to check; a lab=1
// crawl then makes its lab audits (crawl-lab-work.ts), still running, before the finish.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { FetchedPageAnalyzer } from '../analysis/analyze-url.ts';
import type { OriginFacts } from '../fetch/types.ts';
import { loadCrawlRobots } from '../crawl/crawl-robots.ts';
import { crawlAgent } from '../crawl/user-agents.ts';
import { finishCrawl } from './crawl-finish.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as frontierRepository from '../repositories/crawl-frontier.repository.ts';
import { claimNextPage, settleListLeftovers, type Claim, type ClaimLimits } from '../repositories/crawl-claim.repository.ts';
import { listedUrlsOf } from '../crawl/crawl-url.ts';
import { claimingCrawl, createPageWork, type CrawlSite, type ListSite } from './crawl-page-work.ts';
import { createExternalWork } from './crawl-external-work.ts';
import { createLabWork } from './crawl-lab-work.ts';
import { createCrawlStart } from './crawl-start.ts';
import { toCrawl } from './crawl-view.ts';
import { crawlWorkJobId } from './job-ids.ts';
import { isCurrent, type CrawlJob, type CrawlJobSettings, type CrawlNotifier, type CrawlWorkJob, type Enqueue } from './crawl-work-queue.ts';

export { queueCrawlWork, type CrawlJob, type CrawlJobSettings, type CrawlNotifier, type CrawlWorkJob } from './crawl-work-queue.ts';

/** Wait while other jobs fetch the pages that may add more, or while the host's turn comes. */
const IDLE_POLL_MS = 100;
/** Crawls whose origin facts and robots.txt a process keeps parsed (a few run at once). */
const MAX_CRAWLS_REMEMBERED = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(1, ms)));

export function createCrawlJobs(db: Kysely<Database>, analyze: FetchedPageAnalyzer, enqueue: Enqueue, notify: CrawlNotifier, settings: CrawlJobSettings) {
  // The origin's facts the crawl read when it started, and the robots.txt among them, parsed once per
  // crawl and process: every page of the crawl is analysed with them and obeys it. A list crawl read
  // them for each listed origin (crawl-start.ts stores them as {"origins": [...]}).
  const readAtStart = new Map<number, Promise<CrawlSite>>();
  const robotsOf = (crawl: CrawlRow, originFacts: OriginFacts) => {
    const robotsTxt = originFacts.robotsTxt.statusCode === 200 ? originFacts.robotsTxt.body : null;
    return loadCrawlRobots(robotsTxt, crawlAgent(crawl.user_agent, settings.fetch.userAgent).robotsToken, settings.pool);
  };
  const listSiteOf = async (crawl: CrawlRow, gathered: OriginFacts[]): Promise<CrawlSite> => {
    const origins: ListSite['origins'] = new Map(await Promise.all(gathered.map(async (originFacts) => [originFacts.origin, { originFacts, robots: await robotsOf(crawl, originFacts) }] as const)));
    const hostDelays = new Map<string, number>();
    for (const [origin, { robots }] of origins) {
      const { host } = new URL(origin);
      hostDelays.set(host, Math.max(hostDelays.get(host) ?? 0, robots.delayMs));
    }
    const first = origins.get(new URL(crawl.url).origin) ?? origins.values().next().value;
    if (first === undefined) throw new Error(`list crawl ${crawl.id} is running without any origin's facts`);
    return { ...first, blocked: 0, list: { urls: listedUrlsOf(crawl)!, origins, hostDelays } };
  };
  const siteOf = (crawl: CrawlRow): Promise<CrawlSite> => {
    let site = readAtStart.get(crawl.id);
    if (site === undefined) {
      if (crawl.origin_facts === null) throw new Error(`crawl ${crawl.id} is running without the origin's facts`);
      const stored = JSON.parse(crawl.origin_facts) as OriginFacts | { origins: OriginFacts[] };
      site = 'origins' in stored
        ? listSiteOf(crawl, stored.origins)
        : (async () => ({
            originFacts: stored,
            robots: await robotsOf(crawl, stored),
            // Blocked rows are only added when the crawl starts: counted once.
            blocked: crawl.use_sitemap === 1 ? await frontierRepository.countBlocked(db, crawl.id) : 0,
          }))();
      site.catch(() => readAtStart.delete(crawl.id));
      if (readAtStart.size >= MAX_CRAWLS_REMEMBERED) readAtStart.clear();
      readAtStart.set(crawl.id, site);
    }
    return site;
  };

  const claimLimits = (): ClaimLimits => {
    const now = Date.now();
    return { now: new Date(now).toISOString(), leaseUntil: new Date(now + settings.claimMs).toISOString(), concurrency: settings.concurrency };
  };
  const crawlPage = createPageWork(db, analyze, settings, claimLimits);
  const checkExternals = createExternalWork(db, settings);
  const labPhase = createLabWork(db, settings);

  async function end(crawl: CrawlRow): Promise<void> {
    if (await finishCrawl(db, crawl)) {
      await notify(crawl.organization_id, async () => {
        const row = await crawlRepository.findCrawlById(db, crawl.id);
        return row && toCrawl(row);
      });
    }
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
    start: createCrawlStart(db, enqueue, notify, settings),

    /** `crawl.work`: takes pages until the slice is over, then queues its continuation; or ends the crawl. */
    async work(job: CrawlWorkJob): Promise<void> {
      const { crawlId } = job;
      const sliceEnd = Date.now() + settings.sliceMs;
      // Read once a slice: what a claim needs of it does not change once the crawl runs, and the claim
      // itself says when the crawl is no longer running.
      const crawl = await crawlRepository.findCrawlById(db, crawlId);
      if (crawl === undefined || crawl.state !== 'running' || !isCurrent(crawl, job)) return;
      const site = await siteOf(crawl);
      // The claim a stored page brought with it, if any: otherwise a claim of its own.
      let claim: Claim | undefined;
      for (;;) {
        if (claim === undefined) {
          if (Date.now() >= sliceEnd) return continueChain(job);
          claim = await claimNextPage(db, claimingCrawl(crawl, site), claimLimits());
        }
        if ('stopped' in claim) return;
        if ('claimed' in claim) {
          claim = await crawlPage(crawl, site, claim.claimed, Date.now() < sliceEnd);
          continue;
        }
        // No page to take now: the external links are checked meanwhile, a few at a time.
        const unclaimed = claim;
        claim = undefined;
        const externals = await checkExternals(crawl);
        if (externals === 'checked') continue;
        // The host's turn comes at retryAt (Crawl-delay, Retry-After); with every slot taken, soon.
        if ('busy' in unclaimed) await sleep(Math.min(Math.max(Date.parse(unclaimed.retryAt) - Date.now(), IDLE_POLL_MS / 2), sliceEnd - Date.now(), 1_000));
        // Pages being fetched may add more; external URLs being checked elsewhere must be done first.
        else if (unclaimed.inFlight > 0 || externals === 'waiting') await sleep(IDLE_POLL_MS);
        else {
          // A list crawl's claims stop only for its request budget: what is left waiting was left by it.
          if (site.list !== undefined) await settleListLeftovers(db, crawl.id);
          // Every page is in: the lab audits of the pages it chooses come before the site checks.
          if (crawl.lab_profile !== null) {
            const lab = await labPhase(crawl, sliceEnd);
            if (lab === 'later') return continueChain(job);
            if (lab === 'stopped') return;
          }
          return end(crawl);
        }
      }
    },

    /** The queue gave a job up: the crawl fails if it never started; a work job's crawl goes on. */
    async giveUp(kind: 'crawl.start' | 'crawl.work', job: CrawlJob | CrawlWorkJob, error: string): Promise<void> {
      const { crawlId } = job;
      const crawl = await crawlRepository.findCrawlById(db, crawlId);
      // A job of an older generation: the crawl's current jobs carry on without it.
      if (crawl === undefined || !isCurrent(crawl, job)) return;
      if (kind === 'crawl.start') {
        const now = new Date().toISOString();
        const failed = await crawlRepository.moveCrawlState(db, crawlId, ['queued', 'running'], 'failed', { error: `The crawl could not start: ${error}`, finished_at: now, start_lease_until: null });
        const ended = failed ? await crawlRepository.findCrawlById(db, crawlId) : undefined;
        if (ended !== undefined) await notify(ended.organization_id, async () => toCrawl(ended));
        return;
      }
      // The page it kept failing on is recorded as failed once its attempts run out; the rest goes on.
      if (crawl.state === 'running') await continueChain(job as CrawlWorkJob);
    },
  };
}
