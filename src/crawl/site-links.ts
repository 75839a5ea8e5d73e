// The crawl's links (crawl_links), walked in steps of ENTRY_STEP index entries: a page linked from
// every page of a million-page site has a million rows, so no step may be "the links of a few pages".
import { sql, type Expression, type SqlBool } from 'kysely';
import { MAX_PAGES_PER_ITEM } from './site-checks/site-check.ts';
import { compareText } from './site-checks/site-outcome.ts';
import { ENTRY_STEP, yieldToEventLoop, type StoredSite } from './site-scan.ts';

/** A run of links in key order (to_id, from_id): after `after` (exclusive) up to `upTo` (inclusive, null: the end). */
export interface LinkRange {
  after: [number, number];
  upTo: [number, number] | null;
}

/** The crawl's links in ranges of at most ENTRY_STEP rows, the event loop served before each. */
export async function* linkRanges(site: StoredSite): AsyncGenerator<LinkRange> {
  let after: [number, number] = [-1, -1];
  for (;;) {
    await yieldToEventLoop();
    // The key ENTRY_STEP entries on: found by stepping through the primary key, reading no rows.
    const end = await site.db
      .selectFrom('crawl_links')
      .select(['to_id', 'from_id'])
      .where('crawl_id', '=', site.crawlId)
      .where((eb) => eb(eb.refTuple('to_id', 'from_id'), '>', eb.tuple(after[0], after[1])))
      .orderBy('to_id')
      .orderBy('from_id')
      .limit(1)
      .offset(ENTRY_STEP - 1)
      .executeTakeFirst();
    const upTo: [number, number] | null = end ? [end.to_id, end.from_id] : null;
    await yieldToEventLoop();
    yield { after, upTo };
    if (upTo === null) return;
    after = upTo;
  }
}

export function inLinkRange(site: StoredSite, range: LinkRange): Expression<SqlBool> {
  const [afterTo, afterFrom] = range.after;
  const lower = sql<SqlBool>`crawl_links.crawl_id = ${site.crawlId} and (crawl_links.to_id, crawl_links.from_id) > (${afterTo}, ${afterFrom})`;
  if (range.upTo === null) return lower;
  return sql<SqlBool>`${lower} and (crawl_links.to_id, crawl_links.from_id) <= (${range.upTo[0]}, ${range.upTo[1]})`;
}

/** Rows of inlinks written per statement. */
// (each row of the statement's CASE is matched against every branch: a few hundred at most)
const INLINKS_PER_UPDATE = 200;

/**
 * Stores each page's inlinks: the distinct pages linking to it, itself not counted. Pages nobody
 * links to keep their 0. Written per range as counted, a page whose links span two ranges once both
 * are in, so a finish run again writes the same numbers.
 */
export async function storeInlinks(site: StoredSite): Promise<void> {
  let carried: { id: number; count: number } | null = null;
  for await (const range of linkRanges(site)) {
    const counts = await site.db
      .selectFrom('crawl_links')
      .select(['to_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where(inLinkRange(site, range))
      .whereRef('from_id', '<>', 'to_id')
      .groupBy('to_id')
      .orderBy('to_id')
      .execute();
    await yieldToEventLoop();
    const complete: { id: number; count: number }[] = [];
    for (const row of counts) {
      const count = Number(row.count);
      if (carried !== null && carried.id === row.to_id) carried.count += count;
      else {
        if (carried !== null) complete.push(carried);
        carried = { id: row.to_id, count };
      }
    }
    await writeInlinks(site, complete);
  }
  if (carried !== null) await writeInlinks(site, [carried]);
}

async function writeInlinks(site: StoredSite, counts: readonly { id: number; count: number }[]): Promise<void> {
  for (let start = 0; start < counts.length; start += INLINKS_PER_UPDATE) {
    const chunk = counts.slice(start, start + INLINKS_PER_UPDATE);
    const cases = sql.join(chunk.map(({ id, count }) => sql`when ${id} then cast(${count} as integer)`), sql` `);
    await site.db
      .updateTable('crawl_pages')
      .set({ inlinks: sql<number>`case id ${cases} end` })
      .where('id', 'in', chunk.map(({ id }) => id))
      .execute();
    await yieldToEventLoop();
  }
}

/**
 * The first MAX_PAGES_PER_ITEM URLs (in code-point order) of the pages linking to `toId`, itself
 * excepted.
 */
export function firstLinkingUrls(site: StoredSite, toId: number): Promise<string[]> {
  return firstLinkingPages(site, toId, { links: 'crawl_links', max: MAX_PAGES_PER_ITEM, exceptSelf: true });
}

/** Tables of links keyed (crawl_id, to_id, from_id), from_id a crawled page: to a page of the host, or to an external URL. */
type LinkTable = 'crawl_links' | 'crawl_external_links';

export interface LinkingPages {
  links: LinkTable;
  /** URLs named at most */
  max: number;
  /** Leave out the page itself (a page's link to itself is no link to it): only where to_id is a page's id too. */
  exceptSelf: boolean;
}

/**
 * The first `max` URLs (in code-point order) of the pages linking to `toId` in `links`: the best of
 * each ENTRY_STEP of its links, merged, so a target linked from every page reads in bounded steps.
 */
export async function firstLinkingPages(site: StoredSite, toId: number, { links, max, exceptSelf }: LinkingPages): Promise<string[]> {
  let best: string[] = [];
  let after = -1;
  for (;;) {
    await yieldToEventLoop();
    const end = await site.db
      .selectFrom(links)
      .select('from_id')
      .where('crawl_id', '=', site.crawlId)
      .where('to_id', '=', toId)
      .where('from_id', '>', after)
      .orderBy('from_id')
      .limit(1)
      .offset(ENTRY_STEP - 1)
      .executeTakeFirst();
    // Both tables have these columns alike: the join is typed as over one of them.
    let query = site.db
      .selectFrom(`${links} as link` as 'crawl_links as link')
      .innerJoin('crawl_pages', 'crawl_pages.id', 'link.from_id')
      .select('crawl_pages.url')
      .where('link.crawl_id', '=', site.crawlId)
      .where('link.to_id', '=', toId)
      .where('link.from_id', '>', after);
    if (exceptSelf) query = query.where('link.from_id', '<>', toId);
    if (end) query = query.where('link.from_id', '<=', end.from_id);
    const rows = await query.orderBy('crawl_pages.url').limit(max).execute();
    best = [...best, ...rows.map((row) => row.url)].sort(compareText).slice(0, max);
    if (!end) return best;
    after = end.from_id;
  }
}
