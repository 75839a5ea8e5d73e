// Site audits: up makes the crawls, their pages (one row per URL, a page's report kept only while the
// report exists) and their issues, all going with the crawl or its account; down takes them away.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as createCrawls from '../../src/db/migrations/2026-11-28-0900-create-crawls.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-28T09:00:00.000Z';

describe.each(testDialects())('create crawls migration [%s]', (dialect) => {
  it('up: a crawl keeps one row per URL, cascades to its pages and issues, and lets its reports go; down: the tables go', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-11-27-1100-report-schedules');
      await createCrawls.up(db);
      const { id: userId } = await db.insertInto('users').values({ email: 'c@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      const crawl = { user_id: userId, url: 'https://a.com/', project: 'a.com', state: 'running', max_pages: 10, max_depth: 3, use_sitemap: 1, privacy: 0, render: 0, created_at: NOW };
      const { id: crawlId } = await db.insertInto('crawls').values(crawl).returning('id').executeTakeFirstOrThrow();
      await expect(db.insertInto('crawls').values({ ...crawl, state: 'paused' }).execute()).rejects.toThrow();

      const { id: reportId } = await db
        .insertInto('reports')
        .values({ user_id: userId, url: 'https://a.com/', url_lower: 'https://a.com/', project: 'a.com', privacy: 0, result_rank: -1, state: 'done', created_at: NOW, updated_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('crawl_pages').values({ crawl_id: crawlId, url: 'https://a.com/', state: 'done', depth: 0, report_id: reportId }).execute();
      await expect(db.insertInto('crawl_pages').values({ crawl_id: crawlId, url: 'https://a.com/', state: 'pending', depth: 1 }).execute()).rejects.toThrow();
      await db.insertInto('crawl_issues').values({ crawl_id: crawlId, check_id: 'broken_links', importance: 'high', count: 0, items: '[]' }).execute();

      await db.deleteFrom('reports').where('id', '=', reportId).execute();
      expect(await db.selectFrom('crawl_pages').select(['report_id', 'in_sitemap', 'attempts', 'inlinks']).execute()).toEqual([
        { report_id: null, in_sitemap: 0, attempts: 0, inlinks: 0 },
      ]);
      await db.deleteFrom('crawls').where('id', '=', crawlId).execute();
      expect(await db.selectFrom('crawl_pages').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('crawl_issues').selectAll().execute()).toEqual([]);

      await db.insertInto('crawl_hosts').values({ host: 'a.com', next_fetch_at: NOW }).execute();
      await expect(db.insertInto('crawl_hosts').values({ host: 'a.com', next_fetch_at: NOW }).execute()).rejects.toThrow();

      await createCrawls.down(db);
      expect(await tableColumns(db, dialect, 'crawl_hosts')).toEqual([]);
      expect(await tableColumns(db, dialect, 'crawls')).toEqual([]);
      expect(await tableColumns(db, dialect, 'crawl_pages')).toEqual([]);
    });
  });
});
