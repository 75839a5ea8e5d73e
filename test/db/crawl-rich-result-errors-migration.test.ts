// Rich-result errors of crawled pages: up gives every crawl page a rich_result_errors column, null for
// the pages stored before it; down takes it away and keeps the pages.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as crawlRichResultErrors from '../../src/db/migrations/2026-12-04-1100-crawl-rich-result-errors.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-12-04T11:00:00.000Z';

describe.each(testDialects())('crawl rich-result errors migration [%s]', (dialect) => {
  it('up: earlier pages have none (null), a new page keeps its triples; down: the column goes, the pages stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-12-04-1000-run-structured-data');
      const { id: userId } = await db.insertInto('users').values({ email: 'r@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      const crawl = { user_id: userId, url: 'https://a.com/', project: 'a.com', state: 'running', max_pages: 5, max_depth: 2, use_sitemap: 0, privacy: 0, render: 0, created_at: NOW };
      const { id: crawlId } = await db.insertInto('crawls').values(crawl).returning('id').executeTakeFirstOrThrow();
      const { id: oldPage } = await db.insertInto('crawl_pages').values({ crawl_id: crawlId, url: 'https://a.com/', state: 'done', depth: 0 }).returning('id').executeTakeFirstOrThrow();

      await crawlRichResultErrors.up(db);
      const errors = JSON.stringify([['Product', 'review|aggregateRating|offers', 'One of review, aggregateRating or offers is required.']]);
      const { id: newPage } = await db
        .insertInto('crawl_pages')
        .values({ crawl_id: crawlId, url: 'https://a.com/p/1', state: 'done', depth: 1, rich_result_errors: errors })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(await db.selectFrom('crawl_pages').select(['id', 'rich_result_errors']).orderBy('id').execute()).toEqual([
        { id: oldPage, rich_result_errors: null },
        { id: newPage, rich_result_errors: errors },
      ]);

      await crawlRichResultErrors.down(db);
      expect(await tableColumns(db, dialect, 'crawl_pages')).not.toContain('rich_result_errors');
      expect(await db.selectFrom('crawl_pages').select('id').orderBy('id').execute()).toEqual([{ id: oldPage }, { id: newPage }]);
    });
  });
});
