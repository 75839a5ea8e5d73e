// One claimed URL of a crawl: fetched once (a redirect recorded, not followed), an HTML answer
// analysed and stored with its links (crawl-page-store.ts), anything else recorded as it answered.
// Whatever happens, the row moves to done exactly once, by the claim that holds it. In list mode
// (docs/crawls.md, "List mode") only the listed URLs are analysed, each with its own origin's facts and
// robots.txt, as a run of a report in the project of its own host; the other URLs of the listed hosts
// (their pages' links, redirect targets) are fetched and recorded as they answered.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { FetchedPageAnalyzer } from '../analysis/analyze-url.ts';
import type { Analysis, CrawlLinkOptions } from '../analysis/types.ts';
import type { OriginFacts, UndecodedPage } from '../fetch/types.ts';
import type { CrawlRobots } from '../crawl/crawl-robots.ts';
import { crawlUrl, listedHostUrl, paramStripper, type ListedUrls, type ParamStripper } from '../crawl/crawl-url.ts';
import { crawlScope, scopeSettingsOf } from '../crawl/crawl-scope.ts';
import { crawlFetchOptions } from '../crawl/crawl-requests.ts';
import { fetchForCrawl } from '../crawl/fetch-for-crawl.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as frontierRepository from '../repositories/crawl-frontier.repository.ts';
import type { Claim, ClaimedPage, ClaimingCrawl, ClaimLimits } from '../repositories/crawl-claim.repository.ts';
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
  /** the start URL's origin's (in list mode, each origin's are in `list`) */
  originFacts: OriginFacts;
  robots: CrawlRobots;
  /** sitemap URLs stored as blocked: the frontier's bound counts them */
  blocked: number;
  list?: ListSite;
}

/** What a list crawl read when it started: every listed origin's facts and robots.txt. */
export interface ListSite {
  urls: ListedUrls;
  origins: ReadonlyMap<string, { originFacts: OriginFacts; robots: CrawlRobots }>;
  /** each listed host's Crawl-delay: the longest of its origins' */
  hostDelays: ReadonlyMap<string, number>;
}

/** What a robots.txt never read allows: nothing (the host's requests were spent before it was read). */
const NOTHING_ALLOWED: CrawlRobots = { allowed: async (urls) => urls.map(() => false), delayMs: 0, text: null, token: '' };

/**
 * The robots.txt obeyed for `url`: the crawl's; in list mode its origin's, else (an origin of a listed
 * host that was not listed, http beside https) its host's first listed origin's.
 */
function robotsFor(site: CrawlSite, url: string): CrawlRobots {
  if (site.list === undefined) return site.robots;
  const { origin, host } = new URL(url);
  const own = site.list.origins.get(origin);
  if (own !== undefined) return own.robots;
  for (const [listed, read] of site.list.origins) if (new URL(listed).host === host) return read.robots;
  return NOTHING_ALLOWED;
}

/** The claims' view of the crawl: a list crawl's with its hosts' Crawl-delays. */
const claiming = new WeakMap<CrawlRow, ClaimingCrawl>();
export function claimingCrawl(crawl: CrawlRow, site: CrawlSite): ClaimingCrawl {
  if (site.list === undefined) return crawl;
  let known = claiming.get(crawl);
  if (known === undefined) claiming.set(crawl, (known = { ...crawl, hostDelays: site.list.hostDelays }));
  return known;
}

/** The crawl as a page of `host` is stored by it: its reports go to the project of their own host. */
const ofHost = new WeakMap<CrawlRow, Map<string, CrawlRow>>();
function crawlOfHost(crawl: CrawlRow, host: string): CrawlRow {
  if (host === crawl.project) return crawl;
  let hosts = ofHost.get(crawl);
  if (hosts === undefined) ofHost.set(crawl, (hosts = new Map()));
  let known = hosts.get(host);
  if (known === undefined) hosts.set(host, (known = { ...crawl, project: host }));
  return known;
}

/**
 * A listed page's links as a list crawl records them: the analysis keeps the links on the page's own
 * host; those to another listed host are taken out of its external ones and recorded as links too
 * (keyed with strip_params, that host's robots.txt obeyed, include/exclude marking them excluded).
 */
async function withListedHostLinks(analysis: Analysis, site: CrawlSite, list: ListSite, crawl: CrawlRow, strip: ParamStripper | null): Promise<Analysis> {
  const facts = analysis.crawlFacts;
  if (facts === undefined) return analysis;
  const external: string[] = [];
  const onListedHosts: string[] = [];
  for (const url of facts.external) {
    const key = listedHostUrl(url, list.urls, strip);
    if (key === null) external.push(url);
    else onListedHosts.push(key);
  }
  if (onListedHosts.length === 0) return analysis;
  const byRobots = new Map<CrawlRobots, string[]>();
  for (const url of onListedHosts) {
    const robots = robotsFor(site, url);
    const urls = byRobots.get(robots);
    if (urls === undefined) byRobots.set(robots, [url]);
    else urls.push(url);
  }
  const allowed = new Set<string>();
  for (const [robots, urls] of byRobots) {
    const answers = await robots.allowed(urls);
    urls.forEach((url, index) => answers[index] && allowed.add(url));
  }
  const { include, exclude } = scopeSettingsOf(crawl);
  const scope = crawlScope(include, exclude);
  const links = [...facts.links];
  const known = new Set(links);
  const excluded = [...(facts.excluded ?? [])];
  for (const url of onListedHosts) {
    if (!allowed.has(url) || known.has(url)) continue;
    known.add(url);
    links.push(url);
    if (!scope.allows(url)) excluded.push(url);
  }
  return { ...analysis, crawlFacts: { ...facts, links, excluded, external } };
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
    const allowed = target !== null && (await robotsFor(site, target).allowed([target]))[0];
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
    // A list crawl's page is analysed with its own origin's facts and robots.txt, on its own host.
    const { origin, host } = new URL(claim.url);
    const { originFacts, robots } = site.list?.origins.get(origin) ?? site;
    // The analysis keeps the page's links the crawl records: normalised without strip_params, on the
    // host, robots-allowed, the first 1,000 distinct targets, those outside the scope marked (matched
    // off the main thread).
    const { include, exclude, stripParams } = scopeSettingsOf(crawl);
    const crawlLinks: CrawlLinkOptions = { host, robotsTxt: robots.text, robotsToken: robots.token, maxLinks: MAX_LINKS_PER_PAGE, stripParams, include, exclude };
    // The browser's requests (render=1) carry the crawl's User-Agent and request headers, as the crawler's do.
    const opened = crawlFetchOptions(crawl, settings.fetch, settings.secrets);
    const request = { render: crawl.render === 1, crawl: crawlLinks, requests: opened.ok ? opened.options : undefined };
    const analysed = await analyze(page, originFacts, request);
    const analysis = site.list === undefined ? analysed : await withListedHostLinks(analysed, site, site.list, crawl, paramStripper(stripParams));
    const { next } = await storeCrawledPage(db, {
      organizationId: crawl.organization_id,
      crawl: crawlOfHost(crawl, host),
      blocked: site.blocked,
      claim,
      analysis,
      outcome,
      runsKept: settings.runsKept,
      maxExternal: settings.maxExternal,
      claimNext: claimNext ? { crawl: claimingCrawl(crawl, site), limits: claimLimits } : undefined,
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
        await deferHost(db, new URL(claim.url).host, new Date(Date.now() + fetched.retryAfterMs).toISOString());
        if (claim.attempts < MAX_PAGE_ATTEMPTS) await frontierRepository.releasePage(db, claim);
        else await recordAnswer(crawl, site, claim, null, { status_code: fetched.statusCode });
        return undefined;
      }
      case 'answered': {
        // The project is the crawled host (with its port); a list crawl's URLs are on any listed host.
        const strip = paramStripper(scopeSettingsOf(crawl).stripParams);
        const redirect = fetched.redirectTarget;
        const target = redirect === null ? null : site.list ? listedHostUrl(redirect, site.list.urls, strip) : crawlUrl(redirect, crawl.project, strip);
        const outcome = {
          status_code: fetched.statusCode,
          redirect_target: target ?? fetched.redirectTarget,
          content_type: fetched.contentType,
          error: fetched.error,
        };
        // In list mode only a listed URL is analysed: any other is a link checked (its links not followed).
        const analysed = site.list === undefined || site.list.urls.listed.has(claim.url);
        if (fetched.page !== null && analysed) return analyzeAndStore(crawl, site, claim, fetched.page, outcome, claimNext);
        if (fetched.error !== null) await recordFailure(crawl, claim, outcome);
        else await recordAnswer(crawl, site, claim, target, outcome);
        return undefined;
      }
    }
  };
}
