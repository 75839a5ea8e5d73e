import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { answering, siteOf, UNFETCHED } from './site-checks/site-fixture.ts';
import { finishCrawl } from '../services/crawl-finish.ts';

forEachDialect('the finish of a crawl', (database) => {
  it('gives waiting URLs their reason, stores inlinks, the mean score, findings and limit_reached', async () => {
    const { db } = database();
    const site = await siteOf(db, {
      '/': { score: 90, links: ['/a', '/gone', '/'] },
      '/a': { score: 95, links: ['/'] },
      '/gone': answering(404),
      '/deep': { ...UNFETCHED, depth: 11 },
      '/later': UNFETCHED,
    });
    const crawl = await db.selectFrom('crawls').selectAll().where('id', '=', site.crawlId).executeTakeFirstOrThrow();
    expect(await finishCrawl(db, crawl)).toBe(true);
    expect(await finishCrawl(db, crawl)).toBe(false);
    const ended = await db.selectFrom('crawls').selectAll().where('id', '=', site.crawlId).executeTakeFirstOrThrow();
    // 93 is good, but a broken link (high importance) holds it at decent.
    expect(ended).toMatchObject({ state: 'done', score: 93, result: 'decent', limit_reached: 1, issues_high: 1 });
    const rows = await db.selectFrom('crawl_pages').select(['url', 'reason', 'inlinks']).where('crawl_id', '=', site.crawlId).orderBy('id').execute();
    expect(rows.map(({ reason, inlinks }) => [reason, inlinks])).toEqual([[null, 1], [null, 1], [null, 1], ['max_depth', 0], ['max_pages', 0]]);
    const issue = await db.selectFrom('crawl_issues').select(['count', 'items']).where('crawl_id', '=', site.crawlId).where('check_id', '=', 'broken_links').executeTakeFirstOrThrow();
    expect(issue.count).toBe(1);
  });

  it('leaves limit_reached at 0 for a crawl no bound cut short', async () => {
    const { db } = database();
    const site = await siteOf(db, { '/': { score: 80, links: ['/a'] }, '/a': { score: 80 } });
    const crawl = await db.selectFrom('crawls').selectAll().where('id', '=', site.crawlId).executeTakeFirstOrThrow();
    expect(await finishCrawl(db, crawl)).toBe(true);
    expect(await db.selectFrom('crawls').select(['limit_reached', 'score']).where('id', '=', site.crawlId).executeTakeFirstOrThrow()).toEqual({ limit_reached: 0, score: 80 });
  });

  it('is run by one of the jobs that go idle together; the turn of one whose process died runs out', async () => {
    const { db } = database();
    const site = await siteOf(db, { '/': { score: 80, links: ['/a'] }, '/a': { score: 80 } });
    const crawl = await db.selectFrom('crawls').selectAll().where('id', '=', site.crawlId).executeTakeFirstOrThrow();
    // Another job took the turn a minute ago and is still at it (or died): this one leaves it.
    const taken = new Date(Date.now() + 60_000).toISOString();
    await db.updateTable('crawls').set({ finishing_until: taken }).where('id', '=', crawl.id).execute();
    expect(await Promise.all([finishCrawl(db, crawl), finishCrawl(db, crawl)])).toEqual([false, false]);
    expect((await db.selectFrom('crawls').select('state').where('id', '=', crawl.id).executeTakeFirstOrThrow()).state).toBe('running');
    // Its turn ran out: the next job finishes the crawl, once.
    await db.updateTable('crawls').set({ finishing_until: new Date(Date.now() - 1).toISOString() }).where('id', '=', crawl.id).execute();
    const finishes = await Promise.all([finishCrawl(db, crawl), finishCrawl(db, crawl), finishCrawl(db, crawl)]);
    expect(finishes.filter(Boolean)).toHaveLength(1);
    expect((await db.selectFrom('crawls').select('state').where('id', '=', crawl.id).executeTakeFirstOrThrow()).state).toBe('done');
  });
});
