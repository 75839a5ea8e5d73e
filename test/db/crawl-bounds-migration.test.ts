// Crawl bounds (docs/crawls.md, "Bounds"): up gives crawls their request and visit counters and pages
// their fact columns, moving the facts (and links) of crawls still under way out of the JSON column it
// drops; a finished crawl keeps its issues and needs no links. down brings the JSON column back.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as crawlBounds from '../../src/db/migrations/2026-12-02-0900-crawl-bounds.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-12-02T09:00:00.000Z';

describe.each(testDialects())('crawl bounds migration [%s]', (dialect) => {
  it('up: the facts of a running crawl become columns and link rows; down: the facts column is back', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, '2026-11-30-0900-job-generations');
      const { id: userId } = await db.insertInto('users').values({ email: 'b@example.com', is_admin: 0, created_at: NOW }).returning('id').executeTakeFirstOrThrow();
      const crawl = { user_id: userId, url: 'https://a.com/', project: 'a.com', max_pages: 5, max_depth: 2, use_sitemap: 0, privacy: 0, render: 0, created_at: NOW };
      const { id: running } = await db.insertInto('crawls').values({ ...crawl, state: 'running' }).returning('id').executeTakeFirstOrThrow();
      const { id: done } = await db.insertInto('crawls').values({ ...crawl, state: 'done' }).returning('id').executeTakeFirstOrThrow();
      const facts = {
        title: 'Home',
        description: 'The home page',
        canonical: 'https://a.com/',
        noindex: false,
        textHash: 'abc',
        hreflang: [{ lang: 'de', url: 'https://a.com/de' }],
        links: ['https://a.com/about', 'https://a.com/gone', 'https://a.com/not-stored'],
        nofollow: ['https://a.com/gone'],
      };
      const page = (crawlId: number, url: string, withFacts: boolean) => ({ crawl_id: crawlId, url, state: 'done', facts: withFacts ? JSON.stringify(facts) : null });
      await db
        .insertInto('crawl_pages')
        .values([page(running, 'https://a.com/', true), page(running, 'https://a.com/about', false), page(running, 'https://a.com/gone', false), page(done, 'https://a.com/', true), page(done, 'https://a.com/about', false)])
        .execute();

      await crawlBounds.up(db);
      expect(await tableColumns(db, dialect, 'crawl_pages')).not.toContain('facts');
      const home = await db.selectFrom('crawl_pages').selectAll().where('crawl_id', '=', running).where('url', '=', 'https://a.com/').executeTakeFirstOrThrow();
      expect(home).toMatchObject({ html: 1, noindex: 0, description: 'The home page', canonical: 'https://a.com/', text_hash: 'abc', reason: null, redirects: 0, links_dropped: 0 });
      expect(JSON.parse(home.hreflang!)).toEqual(facts.hreflang);
      const links = await db
        .selectFrom('crawl_links')
        .innerJoin('crawl_pages', 'crawl_pages.id', 'crawl_links.to_id')
        .select(['crawl_links.crawl_id', 'crawl_links.from_id', 'crawl_pages.url', 'crawl_links.nofollow'])
        .orderBy('crawl_pages.url')
        .execute();
      // Only the running crawl's links, and only to URLs it stored.
      expect(links).toEqual([
        { crawl_id: running, from_id: home.id, url: 'https://a.com/about', nofollow: 0 },
        { crawl_id: running, from_id: home.id, url: 'https://a.com/gone', nofollow: 1 },
      ]);
      const finished = await db.selectFrom('crawl_pages').select(['html', 'description']).where('crawl_id', '=', done).where('url', '=', 'https://a.com/').executeTakeFirstOrThrow();
      expect(finished).toEqual({ html: 0, description: null });
      expect(await db.selectFrom('crawls').select(['requests', 'pages_visited', 'pages_unstored', 'limit_reached']).where('id', '=', running).executeTakeFirstOrThrow()).toEqual({
        requests: 0,
        pages_visited: 0,
        pages_unstored: 0,
        limit_reached: 0,
      });

      await crawlBounds.down(db);
      expect(await tableColumns(db, dialect, 'crawl_pages')).toContain('facts');
      expect(await tableColumns(db, dialect, 'crawl_pages')).not.toContain('reason');
      expect(await tableColumns(db, dialect, 'crawls')).not.toContain('requests');
    });
  });
});
