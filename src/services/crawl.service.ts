// Site audits for the API and web: starting, reading, listing and cancelling crawls (docs/api.md,
// "Site audits (crawls)"). The work itself is background jobs (crawl-jobs.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { parseTargetUrl } from '../analysis/target-url.ts';
import { addressPolicy } from '../fetch/address-guard.ts';
import { hostRefusal } from '../fetch/host-check.ts';
import { readCrawlPages, type CrawlPageListQuery } from '../lists/crawls.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import { NotFoundError, QueueUnavailableError, ValidationError } from './errors.ts';
import type { Page } from './types.ts';
import { toCrawl, toCrawlIssues, type Crawl, type CrawlIssue, type CrawlPage } from './crawl-view.ts';
import type { CrawlNotifier } from './crawl-jobs.ts';

export interface StartCrawlInput {
  url: string;
  maxPages?: number;
  maxDepth?: number;
  sitemap?: boolean;
  privacy?: number;
  render?: boolean;
}

export interface CrawlServiceSettings {
  allowPrivateUrls: boolean;
  publicAddressesForTests?: string[];
  /** PAGEGRADE_CRAWL_MAX_PAGES */
  maxPages: number;
  /** A browser is configured: render=1 may be asked for. */
  renderingAvailable: boolean;
}

/**
 * The API's bounds and defaults for a crawl (max_pages is also bounded by PAGEGRADE_CRAWL_MAX_PAGES);
 * the dashboard's form shows them.
 */
export const CRAWL_LIMITS = { defaultMaxPages: 100, defaultMaxDepth: 10, maxDepth: 50 } as const;
const { defaultMaxPages: DEFAULT_MAX_PAGES, defaultMaxDepth: DEFAULT_MAX_DEPTH, maxDepth: MAX_DEPTH } = CRAWL_LIMITS;

export function createCrawlService(
  db: Kysely<Database>,
  queueStart: (crawlId: number) => Promise<void>,
  notify: CrawlNotifier,
  settings: CrawlServiceSettings,
) {
  const policy = addressPolicy({ allowPrivate: settings.allowPrivateUrls, publicAddressesForTests: settings.publicAddressesForTests });

  async function owned(userId: number, id: number) {
    const row = await crawlRepository.findCrawl(db, userId, id);
    if (row === undefined) throw new NotFoundError();
    return row;
  }

  return {
    /** Validates and stores the crawl as queued, then queues its start; nothing is stored on a 422. */
    async start(userId: number, input: StartCrawlInput): Promise<Crawl> {
      const target = parseTargetUrl(input.url);
      if (!target.ok) throw new ValidationError('url', target.message);
      const maxPages = input.maxPages ?? Math.min(DEFAULT_MAX_PAGES, settings.maxPages);
      if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > settings.maxPages) {
        throw new ValidationError('max_pages', `The max_pages must be an integer from 1 to ${settings.maxPages}.`);
      }
      const maxDepth = input.maxDepth ?? DEFAULT_MAX_DEPTH;
      if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > MAX_DEPTH) {
        throw new ValidationError('max_depth', `The max_depth must be an integer from 0 to ${MAX_DEPTH}.`);
      }
      if (input.render && !settings.renderingAvailable) throw new ValidationError('render', 'Rendering is not available on this server.');
      const refusal = await hostRefusal(new URL(target.url).hostname, policy);
      if (refusal !== null) throw new ValidationError('url', `The url cannot be crawled: ${refusal}`);
      const now = new Date().toISOString();
      const id = await crawlRepository.insertCrawl(db, {
        user_id: userId,
        url: target.url,
        project: target.project,
        state: 'queued',
        max_pages: maxPages,
        max_depth: maxDepth,
        use_sitemap: input.sitemap === false ? 0 : 1,
        privacy: input.privacy ?? 0,
        render: input.render ? 1 : 0,
        created_at: now,
      });
      try {
        await queueStart(id);
      } catch (error) {
        await crawlRepository.deleteCrawl(db, userId, id);
        throw new QueueUnavailableError(error);
      }
      return toCrawl(await owned(userId, id));
    },

    async show(userId: number, id: number): Promise<Crawl> {
      return toCrawl(await owned(userId, id));
    },

    /**
     * Cancels the crawl if it is still under way (subscribers hear crawl.completed, state cancelled),
     * then deletes it with its pages and issues; the reports it made stay in their project.
     */
    async remove(userId: number, id: number): Promise<void> {
      const row = await owned(userId, id);
      const now = new Date().toISOString();
      if (await crawlRepository.moveCrawlState(db, id, ['queued', 'running'], 'cancelled', { finished_at: now })) {
        await notify(userId, async () => toCrawl({ ...row, state: 'cancelled', finished_at: now }));
      }
      if (!(await crawlRepository.deleteCrawl(db, userId, id))) throw new NotFoundError();
    },

    /** The crawl, a page of its pages, and its issues once it is done: what its web page shows, ownership checked once. */
    async overview(userId: number, id: number, query: CrawlPageListQuery): Promise<{ crawl: Crawl; pages: Page<CrawlPage>; issues: CrawlIssue[] | null }> {
      const crawl = toCrawl(await owned(userId, id));
      const [pages, issues] = await Promise.all([readCrawlPages(db, id, query), crawl.state === 'done' ? issuesOf(id) : null]);
      return { crawl, pages, issues };
    },

    /** The project's newest crawl, if it has one. */
    async latest(userId: number, project: string): Promise<Crawl | undefined> {
      const [row] = await crawlRepository.listCrawls(db, userId, { project, sortBy: 'id', sort: 'desc', limit: 1, offset: 0 });
      return row && toCrawl(row);
    },

    async issues(userId: number, id: number): Promise<CrawlIssue[]> {
      await owned(userId, id);
      return issuesOf(id);
    },
  };

  async function issuesOf(id: number): Promise<CrawlIssue[]> {
    return toCrawlIssues(await crawlRepository.listIssues(db, id));
  }
}
