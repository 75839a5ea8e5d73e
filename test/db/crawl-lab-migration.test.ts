// Lab audits of a crawl: up gives every crawl a lab_profile (mobile or desktop, nothing else), lab_pages
// and lab_summary, null for the crawls made before it, every crawl page a run_number, null for those
// stored before it, and the table of a crawl's chosen pages, deleted with its crawl; down takes them
// away and keeps the crawls and their pages.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as crawlLab from '../../src/db/migrations/2026-12-03-1200-crawl-lab.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-12-03T12:00:00.000Z';

describe.each(testDialects())('crawl lab migration [%s]', (dialect) => {
  it('up: earlier crawls and pages have none (null); a chosen page goes with its crawl; down: the columns and table go, the rows stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-12-03-1100-run-lab');
      const { id: userId } = await db.insertInto('users').values({ email: 'c@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      const crawl = { user_id: userId, url: 'https://a.com/', project: 'a.com', state: 'running', max_pages: 5, max_depth: 2, use_sitemap: 0, privacy: 0, render: 0, created_at: NOW };
      const { id: before } = await db.insertInto('crawls').values(crawl).returning('id').executeTakeFirstOrThrow();
      const { id: oldPage } = await db.insertInto('crawl_pages').values({ crawl_id: before, url: 'https://a.com/', state: 'done', depth: 0 }).returning('id').executeTakeFirstOrThrow();

      await crawlLab.up(db);
      expect(await db.selectFrom('crawls').select(['lab_profile', 'lab_pages', 'lab_summary']).execute()).toEqual([{ lab_profile: null, lab_pages: null, lab_summary: null }]);
      expect(await db.selectFrom('crawl_pages').select('run_number').execute()).toEqual([{ run_number: null }]);
      const { id: labCrawl } = await db.insertInto('crawls').values({ ...crawl, lab_profile: 'desktop', lab_pages: 20 }).returning('id').executeTakeFirstOrThrow();
      const { id: page } = await db.insertInto('crawl_pages').values({ crawl_id: labCrawl, url: 'https://a.com/p/1', state: 'done', depth: 1, run_number: 3 }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('crawl_lab_pages').values({ crawl_id: labCrawl, pick: 0, page_id: page, url: 'https://a.com/p/1', template: '/p/{n}', template_rank: 0, run_number: 3 }).execute();
      await db.updateTable('crawl_lab_pages').set({ state: 'done', audited: 1, lcp_ms: 1830, cls: 0.012, tbt_ms: 0, accessibility_score: 94 }).execute();
      expect(await db.selectFrom('crawl_lab_pages').select(['state', 'attempts', 'lcp_ms', 'cls', 'accessibility_score']).execute()).toEqual([
        { state: 'done', attempts: 0, lcp_ms: 1830, cls: 0.012, accessibility_score: 94 },
      ]);
      await expect(db.insertInto('crawls').values({ ...crawl, lab_profile: 'tablet', lab_pages: 20 }).execute()).rejects.toThrow();
      await expect(db.updateTable('crawl_lab_pages').set({ state: 'lost' }).execute()).rejects.toThrow();
      await db.deleteFrom('crawls').where('id', '=', labCrawl).execute();
      expect(await db.selectFrom('crawl_lab_pages').select('pick').execute()).toEqual([]);

      await crawlLab.down(db);
      for (const column of ['lab_profile', 'lab_pages', 'lab_summary']) expect(await tableColumns(db, dialect, 'crawls')).not.toContain(column);
      expect(await tableColumns(db, dialect, 'crawl_pages')).not.toContain('run_number');
      expect(await tableColumns(db, dialect, 'crawl_lab_pages')).toEqual([]);
      expect(await db.selectFrom('crawls').select('id').execute()).toEqual([{ id: before }]);
      expect(await db.selectFrom('crawl_pages').select('id').execute()).toEqual([{ id: oldPage }]);
    });
  });
});
