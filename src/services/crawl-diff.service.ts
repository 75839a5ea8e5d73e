// GET /api/v1/crawls/{id}/diff and the dashboard's compare page (docs/crawls.md, "Comparing crawls"):
// two finished crawls of an account compared by src/crawl/crawl-diff.ts. A crawl may have a million
// rows, so its pages are never held: both crawls' visited URLs are walked in bounded steps (a fixed
// number of rows a statement, the event loop served between them) and only the counts, the first
// status changes and the few pages the findings name are kept.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import { assembleDiff, diffIssues, pagesToJudge, regressionReasons, StatusChanges, type CrawlDiff, type PageChanges } from '../crawl/crawl-diff.ts';
import { chunksOf, yieldToEventLoop } from '../crawl/site-scan.ts';
import { findCrawl } from '../repositories/crawl.repository.ts';
import { listIssues } from '../repositories/crawl-issue.repository.ts';
import type { DbExecutor } from '../repositories/executor.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { toCrawl, toCrawlIssues, type Crawl } from './crawl-view.ts';

/**
 * {id} is still queued or running (or ended without finishing): 409. It carries its status for the
 * API's error handler, which answers any 4xx error as {message, status}.
 */
export class CrawlNotFinishedError extends Error {
  readonly statusCode = 409;
  constructor() {
    super('The crawl has not finished.');
  }
}

/** crawl_pages rows a statement reads at most while the pages are compared. */
const PAGE_STEP = 1000;
/** Crawls the compare page offers to compare with. */
const CHOICES = 50;

interface PageRow {
  url: string;
  state: string;
  status_code: number | null;
}

/**
 * Every row of the crawl in URL order, PAGE_STEP at a time. The state is filtered here, not in the
 * statement: no index holds it beside the URL, so `state = 'done'` there could read any number of
 * unvisited rows to find PAGE_STEP visited ones.
 */
async function* pageSteps(db: DbExecutor, crawlId: number): AsyncGenerator<PageRow[]> {
  let after: string | null = null;
  for (;;) {
    let query = db.selectFrom('crawl_pages').select(['url', 'state', 'status_code']).where('crawl_id', '=', crawlId);
    if (after !== null) query = query.where('url', '>', after);
    const rows = await query.orderBy('url').limit(PAGE_STEP).execute();
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE_STEP) return;
    after = rows[rows.length - 1].url;
    await yieldToEventLoop();
  }
}

/** The URLs among `urls` the crawl visited, with their status (an `in` list a statement, by its (crawl_id, url) index). */
async function visitedAmong(db: DbExecutor, crawlId: number, urls: readonly string[]): Promise<Map<string, number | null>> {
  const visited = new Map<string, number | null>();
  for (const chunk of chunksOf(urls)) {
    const rows = await db.selectFrom('crawl_pages').select(['url', 'state', 'status_code']).where('crawl_id', '=', crawlId).where('url', 'in', chunk).execute();
    for (const row of rows) if (row.state === 'done') visited.set(row.url, row.status_code);
  }
  return visited;
}

/** Pages added, removed and with another status: `from`'s visited URLs looked up in `to`, then `to`'s counted. */
async function comparePages(db: DbExecutor, fromId: number, toId: number): Promise<PageChanges> {
  const changes = new StatusChanges();
  let fromVisited = 0;
  let both = 0;
  for await (const rows of pageSteps(db, fromId)) {
    const visited = rows.filter((row) => row.state === 'done');
    fromVisited += visited.length;
    const later = await visitedAmong(db, toId, visited.map((row) => row.url));
    for (const row of visited) {
      if (!later.has(row.url)) continue;
      both++;
      changes.add(row.url, row.status_code, later.get(row.url)!);
    }
  }
  let toVisited = 0;
  for await (const rows of pageSteps(db, toId)) for (const row of rows) if (row.state === 'done') toVisited++;
  return { added: toVisited - both, removed: fromVisited - both, status_changed: changes.first() };
}

async function diffRows(db: DbExecutor, from: CrawlRow, to: CrawlRow): Promise<CrawlDiff> {
  const [fromIssues, toIssues] = await Promise.all([listIssues(db, from.id), listIssues(db, to.id)]).then((both) => both.map(toCrawlIssues));
  const later = toCrawl(to);
  // The findings name a bounded number of pages (src/crawl/crawl-diff.ts, pagesToJudge): only those are looked up.
  const judged = [...pagesToJudge(fromIssues, toIssues)];
  const [inFrom, inTo] = await Promise.all([visitedAmong(db, from.id, judged), visitedAmong(db, to.id, judged)]);
  const issues = diffIssues(fromIssues, toIssues, { later, visitedByBoth: (url) => inFrom.has(url) && inTo.has(url) });
  return assembleDiff(toCrawl(from), later, issues, await comparePages(db, from.id, to.id));
}

/** The account's latest done crawl of the same project and url created before `to` (the same instant: a lower id). */
async function previousDone(db: DbExecutor, organizationId: number, to: CrawlRow): Promise<CrawlRow | undefined> {
  return db
    .selectFrom('crawls')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('project', '=', to.project)
    .where('url', '=', to.url)
    .where('state', '=', 'done')
    .where((eb) => eb.or([eb('created_at', '<', to.created_at), eb.and([eb('created_at', '=', to.created_at), eb('id', '<', to.id)])]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

interface CrawlDiffSettings {
  /** PAGEGRADE_ALERT_SCORE_DROP: a fall of the score this large is a regression (crawl.regressed). */
  alertScoreDrop: number;
}

export function createCrawlDiffService(db: Kysely<Database>, settings: CrawlDiffSettings) {
  async function owned(organizationId: number, id: number): Promise<CrawlRow> {
    const row = await findCrawl(db, organizationId, id);
    if (row === undefined) throw new NotFoundError();
    return row;
  }

  /** `from` as given, or the default; every refusal of the contract, in its order. */
  async function sides(organizationId: number, id: number, fromId: number | undefined): Promise<{ from: CrawlRow; to: CrawlRow }> {
    const to = await owned(organizationId, id);
    if (fromId === id) throw new ValidationError('from', 'The from crawl must be another crawl than the one compared.');
    const given = fromId === undefined ? undefined : await owned(organizationId, fromId);
    if (given !== undefined && given.state !== 'done') {
      throw new ValidationError('from', `The from crawl (${given.id}) has not finished (its state is ${given.state}); only a done crawl can be compared.`);
    }
    if (to.state !== 'done') throw new CrawlNotFinishedError();
    const from = given ?? (await previousDone(db, organizationId, to));
    if (from === undefined) {
      throw new ValidationError('from', `There is no earlier finished crawl of ${to.url} to compare crawl ${to.id} with; give from, a crawl id.`);
    }
    return { from, to };
  }

  return {
    /** {id} compared with `fromId`, or with the account's latest done crawl of its project and url created before it. */
    async diff(organizationId: number, id: number, fromId?: number): Promise<CrawlDiff> {
      const { from, to } = await sides(organizationId, id, fromId);
      return diffRows(db, from, to);
    },

    /**
     * What crawl.regressed sends: the diff with the default `from` and why the crawl regressed, or null
     * when it did not, is not done, or has no earlier crawl to compare with.
     */
    async regression(organizationId: number, id: number): Promise<{ diff: CrawlDiff; reasons: string[] } | null> {
      const to = await findCrawl(db, organizationId, id);
      if (to === undefined || to.state !== 'done') return null;
      const from = await previousDone(db, organizationId, to);
      if (from === undefined) return null;
      const diff = await diffRows(db, from, to);
      const reasons = regressionReasons(diff, settings.alertScoreDrop);
      return reasons.length > 0 ? { diff, reasons } : null;
    },

    /** The done crawls of {id}'s project and url (not {id}), newest first: what the compare page offers. */
    async choices(organizationId: number, id: number): Promise<Crawl[]> {
      const to = await owned(organizationId, id);
      const rows = await db
        .selectFrom('crawls')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('project', '=', to.project)
        .where('url', '=', to.url)
        .where('state', '=', 'done')
        .where('id', '!=', to.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(CHOICES)
        .execute();
      return rows.map(toCrawl);
    },
  };
}
