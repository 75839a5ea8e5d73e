// List mode's index (docs/crawls.md, "List mode"): up adds the partial index that finds the list crawls
// under way without reading every crawl; down drops it, and the crawls stay.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as crawlListMode from '../../src/db/migrations/2026-12-03-1000-crawl-list-mode.ts';
import { indexColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-12-03T10:00:00.000Z';

describe.each(testDialects())('crawl list mode migration [%s]', (dialect) => {
  it('up: the list crawls\' index on state; down: no index, the crawls stay', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-12-03-0900-crawl-settings');
      const { id: userId } = await db.insertInto('users').values({ email: 'l@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      const crawl = { user_id: userId, url: 'https://a.com/', project: 'a.com', state: 'running', mode: 'list', urls: '["https://a.com/"]', max_pages: 5, max_depth: 2, use_sitemap: 0, privacy: 0, render: 0, created_at: NOW };
      const { id } = await db.insertInto('crawls').values(crawl).returning('id').executeTakeFirstOrThrow();
      expect(await indexColumns(db, dialect, 'crawls_list_state_idx')).toEqual([]);

      await crawlListMode.up(db);
      expect(await indexColumns(db, dialect, 'crawls_list_state_idx')).toEqual(['state']);

      await crawlListMode.down(db);
      expect(await indexColumns(db, dialect, 'crawls_list_state_idx')).toEqual([]);
      expect(await db.selectFrom('crawls').select('id').execute()).toEqual([{ id }]);
    });
  });
});
