// Starting due crawl schedules (crawl-schedule.ts) on a clock the test sets: each slot starts one crawl
// however many runners look, with the earlier crawl's settings, and the schedule moves to it; a slot
// is skipped while the series' newest crawl is under way or the account is at its crawl limit; a
// schedule missed for days runs once. No job queue: the crawls queued are what queueStart is given.
import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { newOrganizationId } from '../../test/support/repository-fixtures.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlState } from '../db/tables/crawl.table.ts';
import { findCrawlById, insertCrawl, type CrawlInsert } from '../repositories/crawl.repository.ts';
import { ValidationError } from './errors.ts';
import { createCrawlSchedules, parseCrawlSchedule } from './crawl-schedule.ts';

const CREATED = '2026-11-21T10:00:00.000Z';
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs);

/** A crawl with every setting away from its default, scheduled to run next at `nextRunAt`. */
function scheduledCrawl(organizationId: number, overrides: Partial<CrawlInsert> = {}): CrawlInsert {
  return {
    organization_id: organizationId,
    url: 'https://shop.example/',
    project: 'shop.example',
    state: 'done',
    mode: 'list',
    urls: JSON.stringify(['https://shop.example/', 'https://shop.example/b']),
    max_pages: 7,
    max_depth: 3,
    use_sitemap: 0,
    privacy: 1,
    render: 1,
    external: 0,
    include: '["/shop/*"]',
    exclude: '["/shop/cart"]',
    strip_params: '["utm_*"]',
    header_names: '["Cookie"]',
    headers_sealed: 'sealed:opaque-bytes',
    user_agent: 'mobile',
    schedule: '*/5 * * * *',
    next_run_at: '2026-11-21T10:05:00.000Z',
    created_at: CREATED,
    ...overrides,
  };
}

function runnerOn(db: Kysely<Database>, crawlsPerAccount = 5) {
  const queued: number[] = [];
  const runner = createCrawlSchedules(db, async (id) => void queued.push(id), { minScheduleMinutes: 5, crawlsPerAccount });
  return { runner, queued };
}

async function crawlsOf(db: Kysely<Database>, organizationId: number) {
  return db.selectFrom('crawls').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute();
}

describe('reading a crawl schedule', () => {
  it('is off when not given, and refuses one more frequent than the minimum, naming it', () => {
    expect(parseCrawlSchedule(undefined, 5)).toBe('off');
    expect(parseCrawlSchedule(' Daily ', 5)).toBe('daily');
    expect(() => parseCrawlSchedule('* * * * *', 5)).toThrow(ValidationError);
    expect(() => parseCrawlSchedule('* * * * *', 5)).toThrow('The schedule must not run more often than every 5 minutes; this one runs 1 minutes apart.');
  });
});

forEachDialect('crawl schedules coming due', (database) => {
  it('starts nothing before the slot; at it, one crawl with the same settings, and the schedule moves to it', async () => {
    const { db } = database();
    const organizationId = await newOrganizationId(db);
    const first = await insertCrawl(db, scheduledCrawl(organizationId));
    const { runner, queued } = runnerOn(db);
    expect(await runner.runDue(at('2026-11-21T10:04:59.999Z'))).toBe(0);

    expect(await runner.runDue(at('2026-11-21T10:05:00.500Z'))).toBe(1);
    const [earlier, started] = await crawlsOf(db, organizationId);
    expect(earlier).toMatchObject({ id: first, schedule: 'off', next_run_at: null, state: 'done' });
    const { created_at: _created, ...settings } = scheduledCrawl(organizationId);
    expect(started).toMatchObject({
      ...settings,
      state: 'queued',
      trigger: 'schedule',
      previous_crawl_id: first,
      next_run_at: '2026-11-21T10:10:00.000Z',
      created_at: '2026-11-21T10:05:00.500Z',
      // Nothing of the earlier run comes along.
      pages_crawled: 0,
      score: null,
      origin_facts: null,
    });
    expect(queued).toEqual([started.id]);
  });

  it('starts each slot once however many runners look at it at once', async () => {
    const { db } = database();
    const organizationId = await newOrganizationId(db);
    await insertCrawl(db, scheduledCrawl(organizationId));
    const runners = [runnerOn(db), runnerOn(db), runnerOn(db), runnerOn(db)];
    const due = at('2026-11-21T10:05:01.000Z');
    const started = await Promise.all(runners.flatMap(({ runner }) => [runner.runDue(due), runner.runDue(due)]));
    expect(started.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(runners.flatMap(({ queued }) => queued)).toHaveLength(1);
    const crawls = await crawlsOf(db, organizationId);
    expect(crawls).toHaveLength(2);
    expect(crawls.filter((crawl) => crawl.schedule !== 'off')).toHaveLength(1);
  });

  it.each(['queued', 'running'] as CrawlState[])('skips a slot while the series\' newest crawl is %s', async (state) => {
    const { db } = database();
    const organizationId = await newOrganizationId(db);
    const id = await insertCrawl(db, scheduledCrawl(organizationId, { state }));
    const { runner, queued } = runnerOn(db);
    expect(await runner.runDue(at('2026-11-21T10:05:01.000Z'))).toBe(0);
    expect(queued).toEqual([]);
    // The slot is gone, not waiting: the schedule stays on the crawl, at its next slot.
    expect(await findCrawlById(db, id)).toMatchObject({ schedule: '*/5 * * * *', next_run_at: '2026-11-21T10:10:00.000Z' });
    expect(await crawlsOf(db, organizationId)).toHaveLength(1);

    await db.updateTable('crawls').set({ state: 'failed' }).where('id', '=', id).execute();
    expect(await runner.runDue(at('2026-11-21T10:10:00.000Z'))).toBe(1);
  });

  it('skips a slot while the account has its crawls per account under way', async () => {
    const { db } = database();
    const organizationId = await newOrganizationId(db);
    const scheduled = await insertCrawl(db, scheduledCrawl(organizationId));
    const others = [];
    for (let n = 0; n < 2; n++) others.push(await insertCrawl(db, scheduledCrawl(organizationId, { state: n === 0 ? 'queued' : 'running', schedule: 'off', next_run_at: null })));
    const { runner, queued } = runnerOn(db, 2);
    expect(await runner.runDue(at('2026-11-21T10:05:01.000Z'))).toBe(0);
    expect(queued).toEqual([]);
    expect(await findCrawlById(db, scheduled)).toMatchObject({ next_run_at: '2026-11-21T10:10:00.000Z' });
    // Another account's crawls do not count.
    const otherUser = await newOrganizationId(db);
    await insertCrawl(db, scheduledCrawl(otherUser, { next_run_at: '2026-11-21T10:10:00.000Z' }));
    await db.updateTable('crawls').set({ state: 'done' }).where('id', '=', others[0]).execute();
    expect(await runner.runDue(at('2026-11-21T10:10:00.000Z'))).toBe(2);
  });

  it('runs a schedule missed for days once, then at its next slot after now', async () => {
    const { db } = database();
    const organizationId = await newOrganizationId(db);
    await insertCrawl(db, scheduledCrawl(organizationId, { schedule: 'daily', next_run_at: '2026-11-22T10:00:00.000Z' }));
    const { runner } = runnerOn(db);
    const weekLater = at('2026-11-22T10:00:00.000Z', 6 * DAY_MS + 3_600_000);
    expect(await runner.runDue(weekLater)).toBe(1);
    expect(await runner.runDue(weekLater)).toBe(0);
    const crawls = await crawlsOf(db, organizationId);
    expect(crawls).toHaveLength(2);
    // Same time of day as the schedule was set, the first such moment after "now".
    expect(crawls[1]).toMatchObject({ schedule: 'daily', next_run_at: '2026-11-29T10:00:00.000Z' });
  });

  it('stops when the newest crawl of the series is set off, and moves a new schedule from now', async () => {
    const { db } = database();
    const organizationId = await newOrganizationId(db);
    const id = await insertCrawl(db, scheduledCrawl(organizationId));
    const { runner } = runnerOn(db);
    const before = Date.now();
    const hourly = await runner.update(organizationId, id, { schedule: '30 * * * *' });
    expect(hourly.schedule).toBe('30 * * * *');
    expect(Date.parse(hourly.next_run_at!)).toBeGreaterThan(before);
    expect(new Date(hourly.next_run_at!).getUTCMinutes()).toBe(30);
    expect(await runner.update(organizationId, id, { schedule: 'off' })).toMatchObject({ schedule: 'off', next_run_at: null });
    expect(await runner.runDue(at('2030-01-01T00:00:00.000Z'))).toBe(0);
    await expect(runner.update(organizationId, id, { schedule: '* * * * *' })).rejects.toThrow(ValidationError);
    await expect(runner.update(await newOrganizationId(db), id, { schedule: 'off' })).rejects.toThrow('Resource not found.');
  });
});
