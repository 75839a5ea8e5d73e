// Crawl settings (docs/crawls.md): up gives every existing crawl the settings it ran with before (a
// spider crawl, created, external links checked from now on, no scope, headers or schedule) and adds
// the external links' tables; down takes them away again and keeps the crawl.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as crawlSettings from '../../src/db/migrations/2026-12-03-0900-crawl-settings.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-12-03T09:00:00.000Z';

describe.each(testDialects())('crawl settings migration [%s]', (dialect) => {
  it('up: an existing crawl gets the settings it had; down: the columns and tables go, the crawl stays', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-12-02-0900-crawl-bounds');
      const { id: userId } = await db.insertInto('users').values({ email: 's@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      const crawl = { user_id: userId, url: 'https://a.com/', project: 'a.com', state: 'done', max_pages: 5, max_depth: 2, use_sitemap: 0, privacy: 0, render: 0, created_at: NOW };
      const { id } = await db.insertInto('crawls').values(crawl).returning('id').executeTakeFirstOrThrow();

      await crawlSettings.up(db);
      const row = await db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        mode: 'spider', urls: null, trigger: 'create', previous_crawl_id: null, external: 1, external_checked: 0,
        include: '[]', exclude: '[]', strip_params: '[]', header_names: '[]', headers_sealed: null,
        user_agent: 'default', schedule: 'off', next_run_at: null,
      });
      await db.insertInto('crawl_externals').values({ crawl_id: id, url: 'https://b.com/', host: 'b.com', state: 'pending' }).execute();
      await expect(db.insertInto('crawl_externals').values({ crawl_id: id, url: 'https://b.com/', host: 'b.com', state: 'pending' }).execute()).rejects.toThrow();

      await crawlSettings.down(db);
      expect(await tableColumns(db, dialect, 'crawls')).not.toContain('schedule');
      expect(await tableColumns(db, dialect, 'crawls')).toContain('limit_reached');
      expect(await db.selectFrom('crawls').select('id').execute()).toEqual([{ id }]);
    });
  });
});
