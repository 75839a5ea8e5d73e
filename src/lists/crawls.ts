// The crawl lists (docs/api.md, "Site audits (crawls)"): an account's crawls, and the URLs one crawl
// visited (or found and never fetched), of its host(s) or the external links it checked
// (scope=external), a page at a time or whole for an export. Behind lists
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

/**
 * An external URL as a list entry: what its check found, the pages linking to it, and none of a
 * crawled page's fields (it was checked, not crawled).
 */
function toExternalPage(row: pageListRepository.ExternalListRow): CrawlPage {
  return {
    url: row.url,
    external: true,
    status_code: row.status_code,
    depth: null,
    title: null,
    content_type: row.content_type,
    report_id: null,
    score: null,
    result: null,
    inlinks: row.inlinks,
    links_dropped: 0,
    redirect_target: row.redirect_target,
    error: row.error,
    reason: row.reason,
  };
}

/** A window of the list's entries: the crawl's pages, or its external URLs with scope=external. */
async function listEntries(db: Kysely<Database>, crawlId: number, options: pageListRepository.PageListOptions): Promise<CrawlPage[]> {
  if (options.scope === 'external') return (await pageListRepository.listExternals(db, crawlId, options)).map(toExternalPage);
  return (await pageListRepository.listPages(db, crawlId, options)).map(toCrawlPage);
}

/** One page of the pages a crawl reached (whose crawl it is, the caller has checked). */
export function readCrawlPages(db: Kysely<Database>, crawlId: number, query: CrawlPageListQuery): Promise<Page<CrawlPage>> {
  const { page, perPage, ...options } = query;
  const count = options.scope === 'external' ? pageListRepository.countExternals : pageListRepository.countPages;
  return readPage(
    page,
    perPage,
    (window) => listEntries(db, crawlId, { ...options, ...window }),
    () => count(db, crawlId, options),
  );
}

/** Every page a crawl reached, a few hundred at a time as the caller consumes them, however many there are. */
export async function* readCrawlPageRows(db: Kysely<Database>, crawlId: number, query: CrawlPageRowsQuery): AsyncGenerator<CrawlPage> {
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const rows = await listEntries(db, crawlId, { ...query, limit: EXPORT_BATCH, offset });
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
  }
}
