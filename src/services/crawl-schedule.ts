// Crawl schedules (docs/crawls.md, "Scheduled crawls"): the same `schedule` values as reports
// (schedule.ts), set on POST /crawls or PUT /crawls/{id}. A due schedule starts a new crawl with the
// same settings (trigger schedule, previous_crawl_id the crawl it came from) and moves to it, so the
// newest crawl of a series carries it and deleting that crawl, or setting it off, stops the series.
// Every process that runs jobs looks every few seconds; the slot is taken with a compare-and-set in
// the transaction that moves the schedule and stores the new crawl, so exactly one process starts it.
// A slot that comes due while the series' newest crawl is still queued or running, or while the
// account has its PAGEGRADE_CRAWLS_PER_ACCOUNT crawls under way, is skipped; one missed while no
// process ran (down for days) runs once, then the schedule goes on from its next slot after now.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlState } from '../db/tables/crawl.table.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import {
  CRAWL_SETTINGS_COLUMNS,
  clearSchedule,
  dueScheduledCrawls,
  setCrawlSchedule,
  takeScheduleSlot,
  type CrawlSettings,
  type DueCrawl,
} from '../repositories/crawl-schedule.repository.ts';
import { NotFoundError } from './errors.ts';
import { nextRunAt, parseSchedule } from './schedule.ts';
import { toCrawl, type Crawl } from './crawl-view.ts';

/** Due crawls taken per look; more wait for the next look, seconds later. */
const BATCH = 100;
/** A series' newest crawl in these states has its slot skipped: the crawl under way is that slot's. */
const UNDER_WAY: readonly CrawlState[] = ['queued', 'running'];
/** PUT retries when the scheduler moved the schedule between the read and the write. */
const SET_ATTEMPTS = 5;

/** `schedule` as stored (off when not given), or a 422 on schedule naming the minimum interval. */
export function parseCrawlSchedule(input: string | undefined, minMinutes: number): string {
  return parseSchedule(input ?? 'off', minMinutes);
}

/** A schedule set at `now` and when it runs first: one interval on (the crawl itself runs at once). */
export function scheduleColumns(schedule: string, now: Date): { schedule: string; next_run_at: string | null } {
  return { schedule, next_run_at: nextRunAt(schedule, now)?.toISOString() ?? null };
}

interface CrawlScheduleSettings {
  /** PAGEGRADE_MIN_SCHEDULE_MINUTES */
  minScheduleMinutes: number;
  /** PAGEGRADE_CRAWLS_PER_ACCOUNT: a slot due while the account has this many under way is skipped. */
  crawlsPerAccount: number;
}

/** What the crawl being started copies of the one whose schedule it runs. */
function settingsOf(crawl: DueCrawl): CrawlSettings {
  return Object.fromEntries(CRAWL_SETTINGS_COLUMNS.map((column) => [column, crawl[column]])) as CrawlSettings;
}

/**
 * `queueStart` queues a stored crawl's start as POST /crawls does. A scheduled crawl it could not
 * queue stays queued: the lost-job sweep (lost-jobs.ts) starts it once the queue is back.
 */
export function createCrawlSchedules(db: Kysely<Database>, queueStart: (crawlId: number) => Promise<void>, settings: CrawlScheduleSettings) {
  /** Runs one due slot: the id of the crawl started, or undefined when skipped or taken by another process. */
  async function runSlot(crawl: DueCrawl, now: Date): Promise<number | undefined> {
    const due = crawl.next_run_at!;
    const next = nextRunAt(crawl.schedule, now, new Date(due))?.toISOString() ?? null;
    return db.transaction().execute(async (trx) => {
      const state = await takeScheduleSlot(trx, crawl.id, due, next);
      if (state === undefined) return undefined;
      if (UNDER_WAY.includes(state) || (await crawlRepository.countActiveCrawls(trx, crawl.organization_id)) >= settings.crawlsPerAccount) {
        return undefined;
      }
      // The slot is this transaction's: the schedule leaves the earlier crawl for the new one.
      await clearSchedule(trx, crawl.id);
      return crawlRepository.insertCrawl(trx, {
        ...settingsOf(crawl),
        state: 'queued',
        trigger: 'schedule',
        previous_crawl_id: crawl.id,
        next_run_at: next,
        created_at: now.toISOString(),
      });
    });
  }

  return {
    /** Starts every crawl whose schedule is due by `now`; returns how many this process started. */
    async runDue(now = new Date()): Promise<number> {
      let started = 0;
      for (const crawl of await dueScheduledCrawls(db, now.toISOString(), BATCH)) {
        const id = await runSlot(crawl, now);
        if (id === undefined) continue;
        started += 1;
        // Thrown on to the scheduler's error report; the crawl waits queued for the sweep.
        await queueStart(id);
      }
      return started;
    },

    /** PUT /crawls/{id}: sets the crawl's schedule (from now), or takes it off with `off`. */
    async update(organizationId: number, id: number, input: { schedule?: string }): Promise<Crawl> {
      for (let attempt = 1; input.schedule !== undefined; attempt += 1) {
        const row = await crawlRepository.findCrawl(db, organizationId, id);
        if (row === undefined) throw new NotFoundError();
        const columns = scheduleColumns(parseCrawlSchedule(input.schedule, settings.minScheduleMinutes), new Date());
        // Compared with the slot read: a schedule the scheduler moved on meanwhile is read again.
        if (await setCrawlSchedule(db, organizationId, id, attempt < SET_ATTEMPTS ? row.next_run_at : undefined, columns)) break;
      }
      const row = await crawlRepository.findCrawl(db, organizationId, id);
      if (row === undefined) throw new NotFoundError();
      return toCrawl(row);
    },
  };
}
