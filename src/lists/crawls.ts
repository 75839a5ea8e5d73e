// The crawl lists (docs/api.md, "Site audits (crawls)"): an account's crawls, and the URLs one crawl
// visited (or found and never fetched), a page at a time or whole for an export. Behind lists
// (index.ts), which checks whose crawl it is; the crawl service reads the same lists for the
// dashboard and the CLI after its own check.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlState } from '../db/tables/crawl.table.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as pageListRepository from '../repositories/crawl-page-list.repository.ts';
import { toCrawl, toCrawlPage, type Crawl, type CrawlPage } from '../services/crawl-view.ts';
import type { Page } from '../services/types.ts';
import { readPage } from './page.ts';

export interface CrawlListQuery {
  project?: string;
  state?: CrawlState;
  sortBy: 'id' | 'created_at';
  sort: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** A crawl's pages read whole (an export): the list's filters and sort, without a page. */
export type CrawlPageRowsQuery = Pick<pageListRepository.PageListOptions, 'state' | 'scope' | 'status' | 'result' | 'sortBy' | 'sort'>;

export type CrawlPageListQuery = Omit<pageListRepository.PageListOptions, 'limit' | 'offset'> & { page: number; perPage: number };

/** Pages read per query while a crawl's pages are exported. */
const EXPORT_BATCH = 500;

/** One page of the account's crawls. */
export function readCrawls(db: Kysely<Database>, accountId: number, query: CrawlListQuery): Promise<Page<Crawl>> {
  const filters = { project: query.project, state: query.state };
  return readPage(
    query.page,
    query.perPage,
    async (window) => (await crawlRepository.listCrawls(db, accountId, { ...filters, sortBy: query.sortBy, sort: query.sort, ...window })).map(toCrawl),
    () => crawlRepository.countCrawls(db, accountId, filters),
  );
}

/** One page of the pages a crawl reached (whose crawl it is, the caller has checked). */
export function readCrawlPages(db: Kysely<Database>, crawlId: number, query: CrawlPageListQuery): Promise<Page<CrawlPage>> {
  const { page, perPage, ...options } = query;
  return readPage(
    page,
    perPage,
    async (window) => (await pageListRepository.listPages(db, crawlId, { ...options, ...window })).map(toCrawlPage),
    () => pageListRepository.countPages(db, crawlId, options),
  );
}

/** Every page a crawl reached, a few hundred at a time as the caller consumes them, however many there are. */
export async function* readCrawlPageRows(db: Kysely<Database>, crawlId: number, query: CrawlPageRowsQuery): AsyncGenerator<CrawlPage> {
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const rows = await pageListRepository.listPages(db, crawlId, { ...query, limit: EXPORT_BATCH, offset });
    for (const row of rows) yield toCrawlPage(row);
    if (rows.length < EXPORT_BATCH) return;
  }
}
