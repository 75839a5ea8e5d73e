// Crawl schedules (docs/crawls.md, "Scheduled crawls"): a schedule lives on the newest crawl of its
// series, and each run moves it to the crawl it starts. Every change here is a compare-and-set on the
// slot (next_run_at) it read, so however many processes look at a due schedule, one of them runs it.
import type { CrawlRow, CrawlState } from '../db/tables/crawl.table.ts';
import type { CrawlInsert } from './crawl.repository.ts';
import type { DbExecutor } from './executor.ts';

/** The columns a scheduled crawl copies from the crawl whose schedule it runs (its settings). */
export const CRAWL_SETTINGS_COLUMNS = [
  'organization_id',
  'url',
  'project',
  'urls',
  'mode',
  'max_pages',
  'max_depth',
  'use_sitemap',
  'privacy',
  'render',
  'external',
  'include',
  'exclude',
  'strip_params',
  'header_names',
  'headers_sealed',
  'user_agent',
  'lab_profile',
  'lab_pages',
  'schedule',
] as const satisfies readonly (keyof CrawlRow & keyof CrawlInsert)[];

export type CrawlSettings = Pick<CrawlRow, (typeof CRAWL_SETTINGS_COLUMNS)[number]>;
export type DueCrawl = CrawlSettings & Pick<CrawlRow, 'id' | 'state' | 'next_run_at'>;

/** Scheduled crawls due by `now`, the longest overdue first (the partial index on next_run_at). */
export async function dueScheduledCrawls(db: DbExecutor, now: string, limit: number): Promise<DueCrawl[]> {
  return db
    .selectFrom('crawls')
    .select(['id', 'state', 'next_run_at', ...CRAWL_SETTINGS_COLUMNS])
    .where('next_run_at', 'is not', null)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Moves the crawl's schedule on from the slot `due` to `next`, only if no other process did first.
 * Returns the crawl's state when this one did (undefined: another took the slot, or the crawl is
 * gone); the row is then held by the caller's transaction until it ends (PostgreSQL), and SQLite's
 * transactions take turns.
 */
export async function takeScheduleSlot(db: DbExecutor, id: number, due: string, next: string | null): Promise<CrawlState | undefined> {
  const row = await db
    .updateTable('crawls')
    .set({ next_run_at: next })
    .where('id', '=', id)
    .where('next_run_at', '=', due)
    .returning('state')
    .executeTakeFirst();
  return row?.state;
}

/** Takes the schedule off a crawl whose slot the caller holds (it moves to the crawl just started). */
export async function clearSchedule(db: DbExecutor, id: number): Promise<void> {
  await db.updateTable('crawls').set({ schedule: 'off', next_run_at: null }).where('id', '=', id).execute();
}

/**
 * Sets the account's crawl's schedule, only if its slot is still `seen` (the scheduler did not move
 * the schedule on meanwhile); `seen` undefined: whatever it is. Returns whether it changed.
 */
export async function setCrawlSchedule(
  db: DbExecutor,
  organizationId: number,
  id: number,
  seen: string | null | undefined,
  change: { schedule: string; next_run_at: string | null },
): Promise<boolean> {
  let query = db.updateTable('crawls').set(change).where('organization_id', '=', organizationId).where('id', '=', id);
  if (seen === null) query = query.where('next_run_at', 'is', null);
  else if (seen !== undefined) query = query.where('next_run_at', '=', seen);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
