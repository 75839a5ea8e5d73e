// `crawl.start`: robots.txt, the origin's facts and the sitemaps, each request under the host's bounds
// (crawl-start-requests.ts), then the frontier seeded (the start page, the sitemaps' URLs) and the work
// jobs queued. A list crawl (docs/crawls.md, "List mode") reads robots.txt and the facts of each listed
// origin, host after host, and seeds exactly the listed URLs. Safe to run again: seeds already stored
// are merged, not counted twice.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import { addressPolicy } from '../fetch/address-guard.ts';
import type { AuxContext } from '../fetch/aux-request.ts';
import type { OriginFacts } from '../fetch/types.ts';
import { fetchRobotsTxt, gatherOriginFactsOneAtATime } from '../fetch/origin-facts.ts';
import { loadCrawlRobots, type CrawlRobots } from '../crawl/crawl-robots.ts';
import { crawlAgent } from '../crawl/user-agents.ts';
import { crawlFetchOptions } from '../crawl/crawl-requests.ts';
import { allowedInSlices, crawlScope, scopeSettingsOf } from '../crawl/crawl-scope.ts';
import { listedUrlsOf, paramStripper, type ListedUrls } from '../crawl/crawl-url.ts';
import { readSitemapUrls } from '../crawl/sitemap-urls.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as frontierRepository from '../repositories/crawl-frontier.repository.ts';
import { beginStartRequests, isBudgetSpent } from './crawl-start-requests.ts';
import { toCrawl } from './crawl-view.ts';
import { isCurrent, queueCrawlWork, type CrawlJob, type CrawlJobSettings, type CrawlNotifier, type Enqueue } from './crawl-work-queue.ts';

const MAX_SITEMAP_FILES = 50;
/**
 * Sitemap URLs matched against robots.txt and stored per step: a short transaction each, with the
 * event loop let run between (better-sqlite3 is synchronous), so a million seeds never hold it long.
 */
const SEEDS_PER_STEP = 2_000;
/**
 * The start's deadline beyond its requests' own time: the waits for the host's turns (Crawl-delay
 * spaces even the start requests) are under it too.
 */
const START_WAIT_ALLOWANCE_MS = 5 * 60_000;

export function createCrawlStart(db: Kysely<Database>, enqueue: Enqueue, notify: CrawlNotifier, settings: CrawlJobSettings) {
  /** The crawl fails without a page fetched (robots.txt disallows the start page, say). */
  async function refuse(crawl: CrawlRow, error: string): Promise<void> {
    const now = new Date().toISOString();
    await crawlRepository.moveCrawlState(db, crawl.id, ['queued', 'running'], 'failed', { error, started_at: now, finished_at: now });
    const ended = await crawlRepository.findCrawlById(db, crawl.id);
    if (ended !== undefined) await notify(crawl.organization_id, async () => toCrawl(ended));
  }

  /**
   * The sitemaps' URLs into the frontier, a step at a time, without the crawl's strip_params: those
   * robots.txt disallows stored as blocked, those outside the crawl's scope as unvisited (excluded).
   */
  async function seedSitemapUrls(crawl: CrawlRow, listed: readonly string[], robots: CrawlRobots): Promise<void> {
    const { include, exclude, stripParams } = scopeSettingsOf(crawl);
    const strip = paramStripper(stripParams);
    const urls = strip === null ? listed : [...new Set(listed.map(strip))];
    const scope = crawlScope(include, exclude);
    for (let start = 0; start < urls.length; start += SEEDS_PER_STEP) {
      const some = urls.slice(start, start + SEEDS_PER_STEP);
      const allowed = await robots.allowed(some);
      const inScope = await allowedInSlices(scope, some);
      // The start URL is stored already: the sitemap mark merges into its row (its depth stays 0).
      const seeds = some.map((url, index) => {
        const blocked = !allowed[index] && url !== crawl.url;
        return { url, depth: null, inSitemap: true, blocked, reason: blocked || inScope[index] ? undefined : ('excluded' as const) };
      });
      await db.transaction().execute(async (trx) => {
        await crawlRepository.lockCrawl(trx, crawl.id);
        const found = await frontierRepository.addToFrontier(trx, crawl.id, seeds.filter((seed) => !seed.blocked));
        await frontierRepository.addToFrontier(trx, crawl.id, seeds.filter((seed) => seed.blocked));
        await crawlRepository.countOnCrawl(trx, crawl.id, { found });
      });
      await new Promise(setImmediate);
    }
  }

  /**
   * A list crawl's start: each listed origin's robots.txt and facts, host after host, one request at a
   * time (each origin under a deadline of its own), then the listed URLs seeded at depth 0: those
   * robots.txt disallows unvisited (robots), those of origins the request budget left unread
   * unvisited (limit). The start URL first, then the hosts' URLs in turn (the claims look at the
   * nearest waiting URLs, so the first ones should name many hosts).
   */
  async function startList(crawl: CrawlRow, list: ListedUrls): Promise<void> {
    const perOriginMs = settings.fetch.timeoutMs * 3 + START_WAIT_ALLOWANCE_MS;
    const hostOrder = new Map(list.hosts.map((host, index) => [host, index]));
    const origins = [...new Set(list.urls.map((url) => new URL(url).origin))].sort((a, b) => hostOrder.get(new URL(a).host)! - hostOrder.get(new URL(b).host)!);
    const signal = AbortSignal.timeout(perOriginMs * origins.length);
    const requests = await beginStartRequests(db, crawl, { concurrency: settings.concurrency, leaseMs: settings.claimMs, signal, hosts: list.hosts });
    if (requests === undefined) return;
    try {
      const options = crawlFetchOptions(crawl, settings.fetch, settings.secrets);
      if (!options.ok) return await refuse(crawl, options.error);
      const policy = addressPolicy(settings.fetch);
      const agent = crawlAgent(crawl.user_agent, settings.fetch.userAgent);
      const gathered: OriginFacts[] = [];
      const robotsOf = new Map<string, CrawlRobots>();
      for (const origin of origins) {
        const originSignal = AbortSignal.any([signal, AbortSignal.timeout(perOriginMs)]);
        const context: AuxContext = { options: options.options, policy, signal: originSignal, onRequest: (url) => requests.onRequest(url, originSignal) };
        try {
          const robotsAnswer = await fetchRobotsTxt(origin, context);
          const robots = await loadCrawlRobots(robotsAnswer.statusCode === 200 ? robotsAnswer.body : null, agent.robotsToken, settings.pool);
          await requests.obeyDelay(robots.delayMs, new URL(origin).host);
          gathered.push(await gatherOriginFactsOneAtATime(`${origin}/`, context, robotsAnswer));
          robotsOf.set(origin, robots);
        } catch (error) {
          // The budget is spent: the origins not yet read stay so, their URLs unvisited (limit).
          if (!isBudgetSpent(error)) throw error;
          break;
        }
      }
      if (gathered.length === 0) return await refuse(crawl, 'The crawl sent its hosts as many requests as it may (2 × max_pages + 50) before it could read a robots.txt.');
      const seeds = await listSeeds(crawl.url, list, robotsOf);
      for (let start = 0; start < seeds.length; start += SEEDS_PER_STEP) {
        await db.transaction().execute(async (trx) => {
          await crawlRepository.lockCrawl(trx, crawl.id);
          const found = await frontierRepository.addToFrontier(trx, crawl.id, seeds.slice(start, start + SEEDS_PER_STEP));
          await crawlRepository.countOnCrawl(trx, crawl.id, { found, limitReached: robotsOf.size < origins.length });
        });
        await new Promise(setImmediate);
      }
      const now = new Date().toISOString();
      const running = await crawlRepository.moveCrawlState(db, crawl.id, ['queued', 'running'], 'running', {
        origin_facts: JSON.stringify({ origins: gathered }),
        // The longest: each host's own spaces its claims (crawl-jobs.ts reads them from the facts).
        crawl_delay_ms: Math.max(0, ...[...robotsOf.values()].map((robots) => robots.delayMs)),
        started_at: crawl.started_at ?? now,
        start_lease_until: null,
      });
      if (running) await queueCrawlWork(enqueue, crawl.id, crawl.job_generation, settings.concurrency);
    } finally {
      await requests.release();
    }
  }

  return async function start(job: CrawlJob): Promise<void> {
    const crawl = await crawlRepository.findCrawlById(db, job.crawlId);
    if (crawl === undefined || (crawl.state !== 'queued' && crawl.state !== 'running') || !isCurrent(crawl, job)) return;
    const list = listedUrlsOf(crawl);
    if (list !== null) return startList(crawl, list);
    const origin = new URL(crawl.url).origin;
    const signal = AbortSignal.timeout(settings.fetch.timeoutMs * 3 + START_WAIT_ALLOWANCE_MS);
    const requests = await beginStartRequests(db, crawl, { concurrency: settings.concurrency, leaseMs: settings.claimMs, signal });
    if (requests === undefined) return;
    try {
      // The preset's User-Agent on every request, the crawl's headers on those to its host.
      const options = crawlFetchOptions(crawl, settings.fetch, settings.secrets);
      if (!options.ok) return await refuse(crawl, options.error);
      const context: AuxContext & { onRequest?: (url: URL) => Promise<void> } = { options: options.options, policy: addressPolicy(settings.fetch), signal, onRequest: requests.onRequest };
      const robotsAnswer = await fetchRobotsTxt(origin, context);
      const agent = crawlAgent(crawl.user_agent, settings.fetch.userAgent);
      const robots = await loadCrawlRobots(robotsAnswer.statusCode === 200 ? robotsAnswer.body : null, agent.robotsToken, settings.pool);
      await requests.obeyDelay(robots.delayMs);
      if (!(await robots.allowed([crawl.url]))[0]) return await refuse(crawl, 'robots.txt does not allow the start page to be crawled.');
      // What the page checks need from the origin, one request at a time, kept with the crawl for
      // every page it analyses.
      const originFacts = await gatherOriginFactsOneAtATime(crawl.url, context, robotsAnswer);
      // The start URL first: the crawl's rows all come after its row (settleUnvisited walks from it).
      await db.transaction().execute(async (trx) => {
        await crawlRepository.lockCrawl(trx, crawl.id);
        const found = await frontierRepository.addToFrontier(trx, crawl.id, [{ url: crawl.url, depth: 0, inSitemap: false }]);
        await crawlRepository.countOnCrawl(trx, crawl.id, { found });
      });
      if (crawl.use_sitemap === 1) {
        const site = { origin, robotsTxt: robots.text, host: crawl.project };
        const listed = await readSitemapUrls(site, context, { maxUrls: crawl.max_pages, maxSitemaps: MAX_SITEMAP_FILES });
        await seedSitemapUrls(crawl, listed.urls, robots);
      }
      const now = new Date().toISOString();
      const running = await crawlRepository.moveCrawlState(db, crawl.id, ['queued', 'running'], 'running', {
        origin_facts: JSON.stringify(originFacts),
        crawl_delay_ms: robots.delayMs,
        started_at: crawl.started_at ?? now,
        start_lease_until: null,
      });
      if (running) await queueCrawlWork(enqueue, crawl.id, crawl.job_generation, settings.concurrency);
    } finally {
      await requests.release();
    }
  };
}

/** The listed URLs as the frontier's first rows: the start URL, then each host's next URL in turn. */
async function listSeeds(startUrl: string, list: ListedUrls, robotsOf: ReadonlyMap<string, CrawlRobots>): Promise<frontierRepository.FrontierEntry[]> {
  const byHost = new Map<string, string[]>(list.hosts.map((host) => [host, []]));
  for (const url of list.urls) if (url !== startUrl) byHost.get(new URL(url).host)!.push(url);
  const ordered = [startUrl];
  for (let index = 0; ordered.length < list.urls.length; index++) {
    for (const urls of byHost.values()) if (index < urls.length) ordered.push(urls[index]);
  }
  const byOrigin = new Map<string, string[]>();
  for (const url of ordered) {
    const { origin } = new URL(url);
    const urls = byOrigin.get(origin);
    if (urls === undefined) byOrigin.set(origin, [url]);
    else urls.push(url);
  }
  const reasons = new Map<string, 'robots' | 'limit' | undefined>();
  for (const [origin, urls] of byOrigin) {
    const robots = robotsOf.get(origin);
    const allowed = robots === undefined ? urls.map(() => false) : await robots.allowed(urls);
    urls.forEach((url, index) => reasons.set(url, robots === undefined ? 'limit' : allowed[index] ? undefined : 'robots'));
  }
  return ordered.map((url) => ({ url, depth: 0, inSitemap: false, reason: reasons.get(url) }));
}
