// Site audits for the API and web: starting, reading, listing and cancelling crawls (docs/api.md,
// "Site audits (crawls)"). The work itself is background jobs (crawl-jobs.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { parseTargetUrl } from '../analysis/target-url.ts';
import { addressPolicy } from '../fetch/address-guard.ts';
import { hostRefusal } from '../fetch/host-check.ts';
import { readCrawlPages, type CrawlPageListQuery } from '../lists/crawls.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as crawlIssueRepository from '../repositories/crawl-issue.repository.ts';
import { boundsHit } from '../repositories/crawl-page-list.repository.ts';
import { DEFAULT_CRAWLS_PER_ACCOUNT } from '../config.ts';
import { NotFoundError, QueueUnavailableError, TooManyCrawlsError, ValidationError } from './errors.ts';
import type { Page } from './types.ts';
import { toCrawl, toCrawlIssues, type Crawl, type CrawlBounds, type CrawlIssue, type CrawlPage } from './crawl-view.ts';
import type { CrawlNotifier } from './crawl-jobs.ts';
import { parsePatterns, parseStripParams, startUrlOutOfScope, type Parsed } from '../crawl/crawl-scope.ts';
import { parseCrawlHeaders } from '../crawl/crawl-headers.ts';
import { parseUserAgentPreset, sealHeaders, type CrawlSecrets } from '../crawl/crawl-requests.ts';
import { paramStripper, parseCrawlUrls } from '../crawl/crawl-url.ts';
import { parseCrawlSchedule, scheduleColumns } from './crawl-schedule.ts';
import { CRAWL_LAB_LIMITS } from '../crawl/crawl-lab-limits.ts';
import { LAB_PROFILES, type LabProfileName } from '../lab/lab-types.ts';

export interface StartCrawlInput {
  /** the start URL; optional in list mode (urls given), where it must be one of them */
  url?: string;
  maxPages?: number;
  maxDepth?: number;
  sitemap?: boolean;
  privacy?: number;
  render?: boolean;
  /** false: links to other hosts are not checked (external=0) */
  external?: boolean;
  /** path patterns: one string (newline- or comma-separated) or an array, as the API takes them */
  include?: string | string[];
  exclude?: string | string[];
  /** query parameter names: one string (comma-, newline- or space-separated) or an array */
  stripParams?: string | string[];
  /** `Name: value` lines, or an object of names to values */
  headers?: string | Record<string, string>;
  /** default | desktop | mobile | googlebot_smartphone | googlebot_desktop */
  userAgent?: string;
  /** list mode: the URLs to audit, one string (newline- or comma-separated) or an array */
  urls?: string | string[];
  /** off | daily | weekly | monthly | a 5-field cron expression (UTC) */
  schedule?: string;
  /** lab=1: lab audits of up to labPages of its pages (docs/lab.md, "Lab audits of a crawl") */
  lab?: boolean;
  /** 1 to 200 (default 20); validated whenever given, acts only with lab */
  labPages?: number;
  /** mobile (default) | desktop; validated whenever given, acts only with lab */
  labProfile?: string;
}

export interface CrawlOverview {
  crawl: Crawl;
  pages: Page<CrawlPage>;
  issues: CrawlIssue[] | null;
  /** null unless limit_reached */
  bounds: CrawlBounds | null;
}

export interface CrawlServiceSettings {
  allowPrivateUrls: boolean;
  publicAddressesForTests?: string[];
  /** PAGEGRADE_ALLOWED_ADDRESSES (config.ts) */
  allowedAddresses?: readonly string[];
  /** PAGEGRADE_CRAWL_MAX_PAGES */
  maxPages: number;
  /** A browser is configured: render=1 and lab=1 may be asked for. */
  renderingAvailable: boolean;
  /** PAGEGRADE_CRAWLS_PER_ACCOUNT: crawls an account may have queued or running. */
  crawlsPerAccount?: number;
  /** seals the crawls' request headers (PAGEGRADE_SECRET_KEY), the same box the crawl jobs open them with */
  secrets: CrawlSecrets;
  /** PAGEGRADE_MIN_SCHEDULE_MINUTES: the shortest interval a crawl's schedule may have. */
  minScheduleMinutes: number;
}

/**
 * What a refused crawl's Retry-After says: a crawl takes minutes, so asking again sooner than this
 * would only be refused again.
 */
const CRAWL_LIMIT_RETRY_AFTER_SECONDS = 60;

/**
 * The API's bounds and defaults for a crawl (max_pages is also bounded by PAGEGRADE_CRAWL_MAX_PAGES);
 * the dashboard's form shows them.
 */
export const CRAWL_LIMITS = { defaultMaxPages: 100, defaultMaxDepth: 10, maxDepth: 50 } as const;
const { defaultMaxPages: DEFAULT_MAX_PAGES, defaultMaxDepth: DEFAULT_MAX_DEPTH, maxDepth: MAX_DEPTH } = CRAWL_LIMITS;

/** DNS lookups at once while a list's hosts are checked against the address guard. */
const LOOKUPS_AT_ONCE = 4;

/**
 * The lab audits asked for (null: none), lab_pages and lab_profile validated whenever given; lab=1
 * needs a browser, as render=1 does (the lab audits use the same Chromium).
 */
function labSettings(input: StartCrawlInput, browserAvailable: boolean): { profile: LabProfileName; pages: number } | null {
  const { minPages, maxPages, defaultPages } = CRAWL_LAB_LIMITS;
  const pages = input.labPages ?? defaultPages;
  if (!Number.isInteger(pages) || pages < minPages || pages > maxPages) {
    throw new ValidationError('lab_pages', `The lab_pages must be an integer from ${minPages} to ${maxPages}.`);
  }
  const profile = input.labProfile ?? 'mobile';
  if (!(LAB_PROFILES as readonly string[]).includes(profile)) throw new ValidationError('lab_profile', `The lab_profile must be one of: ${LAB_PROFILES.join(', ')}.`);
  if (!input.lab) return null;
  if (!browserAvailable) throw new ValidationError('lab', 'Lab audits are not available on this server.');
  return { profile: profile as LabProfileName, pages };
}

/** The parsed value, or the 422 naming `field`. */
function valid<T>(field: string, parsed: Parsed<T>): T {
  if (!parsed.ok) throw new ValidationError(field, parsed.message);
  return parsed.value;
}

export function createCrawlService(
  db: Kysely<Database>,
  queueStart: (crawlId: number) => Promise<void>,
  notify: CrawlNotifier,
  settings: CrawlServiceSettings,
) {
  const policy = addressPolicy({ allowPrivate: settings.allowPrivateUrls, publicAddressesForTests: settings.publicAddressesForTests, allowedAddresses: settings.allowedAddresses });
  const crawlsPerAccount = settings.crawlsPerAccount ?? DEFAULT_CRAWLS_PER_ACCOUNT;

  async function owned(organizationId: number, id: number) {
    const row = await crawlRepository.findCrawl(db, organizationId, id);
    if (row === undefined) throw new NotFoundError();
    return row;
  }

  return {
    /**
     * Validates and stores the crawl as queued, then queues its start; nothing is stored on a 422,
     * nor when the account already has its PAGEGRADE_CRAWLS_PER_ACCOUNT crawls under way (429,
     * checked after the input and the address guard).
     */
    async start(organizationId: number, input: StartCrawlInput): Promise<Crawl> {
      // List mode: url is optional (a blank one is not given), and must be one of the urls.
      const listMode = input.urls !== undefined;
      const target = listMode && (input.url ?? '').trim() === '' ? undefined : parseTargetUrl(input.url ?? '');
      if (target !== undefined && !target.ok) throw new ValidationError('url', target.message);
      const maxPages = input.maxPages ?? Math.min(DEFAULT_MAX_PAGES, settings.maxPages);
      if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > settings.maxPages) {
        throw new ValidationError('max_pages', `The max_pages must be an integer from 1 to ${settings.maxPages}.`);
      }
      const maxDepth = input.maxDepth ?? DEFAULT_MAX_DEPTH;
      if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > MAX_DEPTH) {
        throw new ValidationError('max_depth', `The max_depth must be an integer from 0 to ${MAX_DEPTH}.`);
      }
      if (input.render && !settings.renderingAvailable) throw new ValidationError('render', 'Rendering is not available on this server.');
      const lab = labSettings(input, settings.renderingAvailable);
      const include = valid('include', parsePatterns('include', input.include));
      const exclude = valid('exclude', parsePatterns('exclude', input.exclude));
      const stripParams = valid('strip_params', parseStripParams(input.stripParams));
      const headers = parseCrawlHeaders(input.headers);
      if (!headers.ok) throw new ValidationError('headers', headers.message);
      const userAgent = valid('user_agent', parseUserAgentPreset(input.userAgent));
      // The start URL is crawled as every URL of its host is: without strip_params, and in scope.
      const strip = paramStripper(stripParams);
      const list = listMode ? valid('urls', parseCrawlUrls(input.urls!, maxPages, strip)) : null;
      const startUrl = target === undefined ? list!.urls[0] : (strip?.(target.url) ?? target.url);
      if (list !== null && !list.urls.includes(startUrl)) {
        throw new ValidationError('url', 'The url must be one of the urls (as the crawl normalises them) when urls are given.');
      }
      // In list mode include/exclude judge only the linked URLs: every listed one is fetched.
      const outOfScope = list === null ? startUrlOutOfScope(startUrl, include, exclude) : null;
      if (outOfScope !== null) throw new ValidationError(outOfScope.field, outOfScope.message);
      const schedule = parseCrawlSchedule(input.schedule, settings.minScheduleMinutes);
      if (list === null) {
        const refusal = await hostRefusal(new URL(startUrl).hostname, policy);
        if (refusal !== null) throw new ValidationError('url', `The url cannot be crawled: ${refusal}`);
      } else {
        const refused = await firstRefused(list.urls);
        if (refused !== null) throw new ValidationError('urls', `The urls name ${refused.url}, which cannot be crawled: ${refused.refusal}`);
      }
      const now = new Date().toISOString();
      // Counted and stored in one transaction: on SQLite transactions take turns, so two requests
      // of one account cannot both pass the count.
      const id = await db.transaction().execute(async (trx) => {
        if ((await crawlRepository.countActiveCrawls(trx, organizationId)) >= crawlsPerAccount) {
          throw new TooManyCrawlsError(crawlsPerAccount, CRAWL_LIMIT_RETRY_AFTER_SECONDS);
        }
        return crawlRepository.insertCrawl(trx, {
          organization_id: organizationId,
          url: startUrl,
          project: new URL(startUrl).host,
          state: 'queued',
          mode: list === null ? 'spider' : 'list',
          urls: list === null ? null : JSON.stringify(list.urls),
          max_pages: maxPages,
          max_depth: maxDepth,
          // A list crawl reads no sitemap.
          use_sitemap: list !== null || input.sitemap === false ? 0 : 1,
          privacy: input.privacy ?? 0,
          render: input.render ? 1 : 0,
          external: input.external === false ? 0 : 1,
          include: JSON.stringify(include),
          exclude: JSON.stringify(exclude),
          strip_params: JSON.stringify(stripParams),
          header_names: JSON.stringify(headers.names),
          headers_sealed: headers.names.length === 0 ? null : sealHeaders(settings.secrets, headers.headers),
          user_agent: userAgent,
          lab_profile: lab?.profile ?? null,
          lab_pages: lab?.pages ?? null,
          // It runs at once, as any crawl, and then on its schedule.
          ...scheduleColumns(schedule, new Date(now)),
          created_at: now,
        });
      });
      try {
        await queueStart(id);
      } catch (error) {
        await crawlRepository.deleteCrawl(db, organizationId, id);
        throw new QueueUnavailableError(error);
      }
      return toCrawl(await owned(organizationId, id));
    },

    async show(organizationId: number, id: number): Promise<Crawl> {
      return toCrawl(await owned(organizationId, id));
    },

    /**
     * Cancels the crawl if it is still under way (subscribers hear crawl.completed, state cancelled),
     * then deletes it with its pages and issues; the reports it made stay in their project.
     */
    async remove(organizationId: number, id: number): Promise<void> {
      const row = await owned(organizationId, id);
      const now = new Date().toISOString();
      if (await crawlRepository.moveCrawlState(db, id, ['queued', 'running'], 'cancelled', { finished_at: now })) {
        await notify(organizationId, async () => toCrawl({ ...row, state: 'cancelled', finished_at: now }));
      }
      if (!(await crawlRepository.deleteCrawl(db, organizationId, id))) throw new NotFoundError();
    },

    /**
     * The crawl, a page of its pages, its issues once it is done, and the bounds it met when it met
     * any: what its web page shows, ownership checked once.
     */
    async overview(organizationId: number, id: number, query: CrawlPageListQuery): Promise<CrawlOverview> {
      const row = await owned(organizationId, id);
      const crawl = toCrawl(row);
      const [pages, issues, bounds] = await Promise.all([
        readCrawlPages(db, id, query),
        crawl.state === 'done' ? issuesOf(id) : null,
        crawl.limit_reached ? boundsOf(id, row.pages_unstored) : null,
      ]);
      return { crawl, pages, issues, bounds };
    },

    /** The bounds a crawl met (null when limit_reached is false), for the CLI's line that says so. */
    async bounds(organizationId: number, id: number): Promise<CrawlBounds | null> {
      const row = await owned(organizationId, id);
      return row.limit_reached === 1 ? boundsOf(id, row.pages_unstored) : null;
    },

    /** The project's newest crawl, if it has one. */
    async latest(organizationId: number, project: string): Promise<Crawl | undefined> {
      const [row] = await crawlRepository.listCrawls(db, organizationId, { project, sortBy: 'id', sort: 'desc', limit: 1, offset: 0 });
      return row && toCrawl(row);
    },

    async issues(organizationId: number, id: number): Promise<CrawlIssue[]> {
      await owned(organizationId, id);
      return issuesOf(id);
    },
  };

  /**
   * The first listed URL the address guard refuses, and why: each host name looked up once, a few
   * at a time (a list names at most MAX_LIST_HOSTS hosts).
   */
  async function firstRefused(urls: readonly string[]): Promise<{ url: string; refusal: string } | null> {
    const hostnames = [...new Set(urls.map((url) => new URL(url).hostname))];
    const refusals = new Map<string, string | null>();
    for (let start = 0; start < hostnames.length; start += LOOKUPS_AT_ONCE) {
      await Promise.all(hostnames.slice(start, start + LOOKUPS_AT_ONCE).map(async (hostname) => refusals.set(hostname, await hostRefusal(hostname, policy))));
    }
    for (const url of urls) {
      const refusal = refusals.get(new URL(url).hostname);
      if (refusal) return { url, refusal };
    }
    return null;
  }

  async function boundsOf(id: number, unstored: number): Promise<CrawlBounds> {
    const hit = await boundsHit(db, id);
    // A URL a full frontier could not store is unvisited by the limit bound, though it has no row.
    const reasons = unstored > 0 && !hit.reasons.includes('limit') ? [...hit.reasons, 'limit' as const] : hit.reasons;
    return { reasons, linksDropped: hit.linksDropped };
  }

  async function issuesOf(id: number): Promise<CrawlIssue[]> {
    return toCrawlIssues(await crawlIssueRepository.listIssues(db, id));
  }
}
