// A lab crawl's chosen pages (crawl_lab_pages, docs/lab.md "Lab audits of a crawl"): the candidates
// read one depth at a time in bounded batches, the choice stored once, and each page claimed with a
// lease and a number as a page of the frontier is (only the latest claim may store its audit), one
// at a time per crawl: lab audits taken side by side disturb each other's timings. Every transaction
// here that changes the crawl's rows takes the crawl's row first (crawl.repository.ts, lockCrawl).
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlLabPageRow } from '../db/tables/crawl.table.ts';
import type { ReportResult } from '../db/tables/report.table.ts';
import type { AuditedLabPage } from '../crawl/crawl-lab-summary.ts';
import type { ChosenLabPage, LabCandidate } from '../crawl/lab-templates.ts';
import { statementChunks, type DbExecutor } from './executor.ts';

/** Rows read per statement while choosing: each statement reads this many at most, whatever the filter keeps. */
const LAB_CANDIDATES_PER_READ = 1_000;

/**
 * A batch of the crawl's visited URLs at `depth` (null: known only from a sitemap) after `afterId`, in
 * id order (the claim index: crawl_id, state, depth, id), and those of them that may be audited: HTML
 * pages analysed, answered 2xx, with their run. `lastId` is where the next batch starts; null: none.
 */
export async function readLabCandidates(
  db: DbExecutor,
  crawlId: number,
  depth: number | null,
  afterId: number,
): Promise<{ candidates: LabCandidate[]; lastId: number | null }> {
  let query = db
    .selectFrom('crawl_pages')
    .select(['id', 'url', 'html', 'status_code', 'report_id', 'run_number'])
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'done');
  query = depth === null ? query.where('depth', 'is', null) : query.where('depth', '=', depth);
  // The filter is applied here, not in SQL: a statement then reads a bounded number of rows even at a
  // depth of a million non-HTML answers.
  const rows = await query.where('id', '>', afterId).orderBy('id').limit(LAB_CANDIDATES_PER_READ).execute();
  const candidates = rows.flatMap((row) =>
    row.html === 1 && row.status_code !== null && row.status_code >= 200 && row.status_code < 300 && row.report_id !== null && row.run_number !== null
      ? [{ pageId: row.id, url: row.url, reportId: row.report_id, runNumber: row.run_number }]
      : [],
  );
  return { candidates, lastId: rows.length < LAB_CANDIDATES_PER_READ ? null : rows[rows.length - 1].id };
}

/** The deepest click depth among the crawl's visited URLs (null: none has one), bounding the depths to read. */
export async function deepestVisitedDepth(db: DbExecutor, crawlId: number): Promise<number | null> {
  const row = await db
    .selectFrom('crawl_pages')
    .select('depth')
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'done')
    .where('depth', 'is not', null)
    .orderBy('depth', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.depth ?? null;
}

/**
 * Stores the choice and the empty summary that says it was made, unless another job made it first
 * (then false). In the caller's transaction, which took the crawl's row.
 */
export async function storeLabChoice(trx: DbExecutor, crawlId: number, chosen: readonly ChosenLabPage[], emptySummary: string): Promise<boolean> {
  const marked = await trx.updateTable('crawls').set({ lab_summary: emptySummary }).where('id', '=', crawlId).where('lab_summary', 'is', null).executeTakeFirst();
  if (Number(marked.numUpdatedRows) === 0) return false;
  const rows = chosen.map((page) => ({
    crawl_id: crawlId,
    pick: page.pick,
    page_id: page.pageId,
    url: page.url,
    template: page.template,
    template_rank: page.templateRank,
    report_id: page.reportId,
    run_number: page.runNumber,
  }));
  for (const chunk of statementChunks(rows)) await trx.insertInto('crawl_lab_pages').values(chunk).execute();
  return true;
}

/** A chosen page claimed for its audit. */
export interface LabClaim {
  crawlId: number;
  pick: number;
  pageId: number;
  url: string;
  reportId: number | null;
  runNumber: number;
  /** the claim's number (a fencing token): only the latest claim may store the audit */
  attempts: number;
}

export type LabClaimOutcome =
  | { claimed: LabClaim }
  /** another claim's audit is under way until `retryAt` (its lease), renewed while it lives */
  | { busy: true; retryAt: string }
  /** every chosen page is done */
  | { finished: true };

/**
 * Claims the crawl's next chosen page (by pick) whose audit is to be made, or whose claim ran out (its
 * process died), under the lease `leaseUntil`; busy while another claim on one of its pages lives. In
 * the caller's transaction, which took the crawl's row (at most 200 rows are read).
 */
export async function claimLabPage(trx: DbExecutor, crawlId: number, limits: { now: string; leaseUntil: string }): Promise<LabClaimOutcome> {
  const open = await trx
    .selectFrom('crawl_lab_pages')
    .select(['pick', 'page_id', 'url', 'report_id', 'run_number', 'state', 'lease_until', 'attempts'])
    .where('crawl_id', '=', crawlId)
    .where('state', '<>', 'done')
    .orderBy('pick')
    .execute();
  if (open.length === 0) return { finished: true };
  const live = open.find((row) => row.state === 'auditing' && row.lease_until !== null && row.lease_until > limits.now);
  if (live !== undefined) return { busy: true, retryAt: live.lease_until! };
  const next = open[0];
  const attempts = next.attempts + 1;
  await trx
    .updateTable('crawl_lab_pages')
    .set({ state: 'auditing', lease_until: limits.leaseUntil, attempts })
    .where('crawl_id', '=', crawlId)
    .where('pick', '=', next.pick)
    .where('attempts', '=', next.attempts)
    .execute();
  return { claimed: { crawlId, pick: next.pick, pageId: next.page_id, url: next.url, reportId: next.report_id, runNumber: next.run_number, attempts } };
}

/** The claim's page while the claim still holds it: auditing under the claim's number. */
function heldBy(claim: LabClaim) {
  return (eb: ExpressionBuilder<Database, 'crawl_lab_pages'>) =>
    eb.and({ crawl_id: claim.crawlId, pick: claim.pick, state: 'auditing', attempts: claim.attempts });
}

/** Holds the claim's page until `leaseUntil`; false when the claim no longer holds it (or the crawl is gone). */
export async function renewLabLease(db: DbExecutor, claim: LabClaim, leaseUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('crawl_lab_pages')
    .set({ lease_until: leaseUntil })
    .where(heldBy(claim))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type LabPageOutcome = Pick<CrawlLabPageRow, 'audited' | 'error' | 'lcp_ms' | 'cls' | 'tbt_ms' | 'accessibility_score'>;

/** Records the audit's outcome if the claim still holds the page; returns whether it did. In the caller's transaction. */
export async function recordLabPage(trx: DbExecutor, claim: LabClaim, outcome: LabPageOutcome): Promise<boolean> {
  const result = await trx
    .updateTable('crawl_lab_pages')
    .set({ ...outcome, state: 'done', lease_until: null })
    .where(heldBy(claim))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether the claim still holds its page (read in the transaction that took the crawl's row). */
export async function holdsLabPage(trx: DbExecutor, claim: LabClaim): Promise<boolean> {
  const row = await trx
    .selectFrom('crawl_lab_pages')
    .select('pick')
    .where(heldBy(claim))
    .executeTakeFirst();
  return row !== undefined;
}

/** The crawl's successful audits, in the order of their templates (at most lab_pages rows). */
export async function auditedLabPages(db: DbExecutor, crawlId: number): Promise<AuditedLabPage[]> {
  return db
    .selectFrom('crawl_lab_pages')
    .select(['template', 'template_rank', 'lcp_ms', 'cls', 'tbt_ms', 'accessibility_score'])
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'done')
    .where('audited', '=', 1)
    .orderBy('template_rank')
    .orderBy('pick')
    .execute();
}

/** The crawl's page row follows its re-scored run: the crawl's score is the mean of its pages'. */
export async function rescorePage(trx: DbExecutor, pageId: number, score: number, result: ReportResult): Promise<void> {
  await trx.updateTable('crawl_pages').set({ score, result }).where('id', '=', pageId).execute();
}

export async function setLabSummary(db: DbExecutor, crawlId: number, summary: string): Promise<void> {
  await db.updateTable('crawls').set({ lab_summary: summary }).where('id', '=', crawlId).execute();
}

/** The chosen pages of a crawl, by pick: what a test or an operator reads to see what was audited. */
export async function listLabPages(db: DbExecutor, crawlId: number): Promise<CrawlLabPageRow[]> {
  return db.selectFrom('crawl_lab_pages').selectAll().where('crawl_id', '=', crawlId).orderBy('pick').execute();
}
