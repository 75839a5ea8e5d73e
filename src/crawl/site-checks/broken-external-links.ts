// Links from crawled pages to other hosts that lead nowhere (docs/crawls.md, "External links"): each
// external URL was checked once (HEAD, GET when refused, up to 5 redirects); one whose final answer is
// 4xx or 5xx, that could not be reached, or that redirected more than 5 times is a finding. The crawl's
// external URLs and their links are read in bounded steps, as every site check reads the crawl.
import type { CrawlRow } from '../../db/tables/crawl.table.ts';
import { chunksOf, ENTRY_STEP, yieldToEventLoop, type StoredSite } from '../site-scan.ts';
import { firstLinkingPages } from '../site-links.ts';
import { defineSiteCheck } from './site-check.ts';
import { byPageCountThenUrl, KeptFindings } from './site-outcome.ts';

/** Pages named per item; the item keeps their count. */
export const MAX_LINKERS_PER_EXTERNAL = 10;

/** The check applies only to a crawl that checked its external links (external=1). */
export const brokenExternalLinksApply = (crawl: Pick<CrawlRow, 'external'>): boolean => crawl.external === 1;

interface Broken {
  id: number;
  url: string;
  status_code: number | null;
  error: string | null;
}

export const brokenExternalLinks = defineSiteCheck({
  id: 'broken_external_links',
  importance: 'medium',
  title: 'No link to another site is broken',
  failureTitle: 'Links to other sites lead to errors',
  description:
    'A link to another site that answers 4xx or 5xx, cannot be reached or redirects without end sends visitors to a dead end and tells search engines the page is not kept up to date.',
  howToFix:
    'Point each link at the page\'s current address (the other site may have moved it), or remove the link when the page is gone; a link refused by the address guard points at a private address.',
  async run(site) {
    const broken = await brokenExternals(site);
    if (broken.length === 0) return { count: 0, items: [] };
    const counts = await linkCounts(site, broken.map((row) => row.id));
    const kept = new KeptFindings<Broken & { linkers: number }>(byPageCountThenUrl((item) => item.linkers, (item) => item.url));
    for (const row of broken) kept.add({ ...row, linkers: counts.get(row.id) ?? 0 });
    const items = [];
    for (const { id, url, status_code, error, linkers } of kept.first()) {
      items.push({ url, status_code, error, linked_from: await firstLinkers(site, id), linked_from_count: linkers });
    }
    return { count: kept.count, items };
  },
});

/**
 * The crawl's checked external URLs that are broken, walked along its (crawl_id, url) index. They are
 * among the PAGEGRADE_CRAWL_MAX_EXTERNAL checked, so they fit in memory whatever the site.
 */
async function brokenExternals(site: StoredSite): Promise<Broken[]> {
  const broken: Broken[] = [];
  let after: string | null = null;
  for (;;) {
    await yieldToEventLoop();
    let query = site.db
      .selectFrom('crawl_externals')
      .select(['id', 'url', 'state', 'reason', 'status_code', 'error'])
      .where('crawl_id', '=', site.crawlId);
    if (after !== null) query = query.where('url', '>', after);
    const rows = await query.orderBy('url').limit(ENTRY_STEP).execute();
    for (const row of rows) {
      if (row.state !== 'done' || row.reason !== null) continue;
      // An error with a status is a run of redirects cut off; without one, no answer at all.
      if ((row.status_code ?? 0) >= 400 || row.error !== null) broken.push({ id: row.id, url: row.url, status_code: row.status_code, error: row.error });
    }
    if (rows.length < ENTRY_STEP) return broken;
    after = rows[rows.length - 1].url;
  }
}

/**
 * The pages linking to each of `ids`: counted a few hundred URLs at a time when their links are few
 * (one bounded read), else URL by URL in steps of ENTRY_STEP links.
 */
async function linkCounts(site: StoredSite, ids: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const chunk of chunksOf(ids)) {
    await yieldToEventLoop();
    const some = site.db
      .selectFrom('crawl_external_links')
      .select('to_id')
      .where('crawl_id', '=', site.crawlId)
      .where('to_id', 'in', chunk)
      .limit(ENTRY_STEP + 1)
      .as('some');
    const rows = await site.db.selectFrom(some).select(['to_id', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('to_id').execute();
    const total = rows.reduce((sum, row) => sum + Number(row.count), 0);
    if (total <= ENTRY_STEP) {
      for (const row of rows) counts.set(row.to_id, Number(row.count));
      continue;
    }
    for (const id of chunk) counts.set(id, await countLinkers(site, id));
  }
  return counts;
}

async function countLinkers(site: StoredSite, toId: number): Promise<number> {
  let count = 0;
  let after = -1;
  for (;;) {
    await yieldToEventLoop();
    const links = site.db.selectFrom('crawl_external_links').where('crawl_id', '=', site.crawlId).where('to_id', '=', toId).where('from_id', '>', after);
    const end = await links.select('from_id').orderBy('from_id').limit(1).offset(ENTRY_STEP - 1).executeTakeFirst();
    if (end === undefined) {
      const rest = await links.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      return count + Number(rest.count);
    }
    count += ENTRY_STEP;
    after = end.from_id;
  }
}

/** The first MAX_LINKERS_PER_EXTERNAL URLs (code-point order) of the pages linking to the external URL `toId`. */
function firstLinkers(site: StoredSite, toId: number): Promise<string[]> {
  // An external URL's id is no page's: no page is left out as the URL itself.
  return firstLinkingPages(site, toId, { links: 'crawl_external_links', max: MAX_LINKERS_PER_EXTERNAL, exceptSelf: false });
}
