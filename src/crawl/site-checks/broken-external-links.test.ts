import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { CrawlExternalRow } from '../../db/tables/crawl.table.ts';
import { forEachDialect } from '../../../test/support/databases.ts';
import { at, siteOf } from './site-fixture.ts';
import { brokenExternalLinks, brokenExternalLinksApply, MAX_LINKERS_PER_EXTERNAL } from './broken-external-links.ts';
import { MAX_SITE_ITEMS, type StoredSite } from './site-check.ts';

type Checked = Partial<Pick<CrawlExternalRow, 'state' | 'reason' | 'status_code' | 'redirect_target' | 'error'>> & { from: string[] };

/** The crawl's external URLs, each checked as given (done, 200 unless it says otherwise), and the pages linking to them. */
async function withExternals(db: Kysely<Database>, site: StoredSite, externals: Record<string, Checked>): Promise<StoredSite> {
  for (const [url, spec] of Object.entries(externals)) {
    const { id } = await db
      .insertInto('crawl_externals')
      .values({
        crawl_id: site.crawlId,
        url,
        host: new URL(url).host,
        state: spec.state ?? 'done',
        reason: spec.reason ?? null,
        status_code: spec.status_code === undefined ? 200 : spec.status_code,
        redirect_target: spec.redirect_target ?? null,
        error: spec.error ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const from of spec.from) {
      const page = await db.selectFrom('crawl_pages').select('id').where('crawl_id', '=', site.crawlId).where('url', '=', at(from)).executeTakeFirstOrThrow();
      await db.insertInto('crawl_external_links').values({ crawl_id: site.crawlId, to_id: id, from_id: page.id }).execute();
    }
  }
  return site;
}

forEachDialect('broken_external_links', (database) => {
  it('finds nothing when every external link answers, directly or after its redirects', async () => {
    const db = database().db;
    const site = await withExternals(db, await siteOf(db, { '/': {}, '/a': {} }), {
      'https://other.test/fine': { from: ['/'] },
      'https://other.test/moved': { status_code: 200, redirect_target: 'https://other.test/here', from: ['/a'] },
    });
    expect(await brokenExternalLinks.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each broken external URL once, with its status or error and the pages linking to it', async () => {
    const db = database().db;
    const site = await withExternals(db, await siteOf(db, { '/': {}, '/a': {}, '/b': {} }), {
      'https://other.test/gone': { status_code: 404, from: ['/b', '/'] },
      'https://other.test/down': { status_code: 503, from: ['/a'] },
      'http://127.0.0.1:9/private': { status_code: null, error: '127.0.0.1 is a loopback address; pagegrade does not analyse private networks.', from: ['/'] },
      'https://loop.test/': { status_code: 301, redirect_target: 'https://loop.test/6', error: 'too many redirects', from: ['/a'] },
      'https://other.test/fine': { from: ['/', '/a', '/b'] },
    });
    expect(await brokenExternalLinks.run(site)).toEqual({
      count: 4,
      items: [
        { url: 'https://other.test/gone', status_code: 404, error: null, linked_from: [at('/'), at('/b')], linked_from_count: 2 },
        { url: 'http://127.0.0.1:9/private', status_code: null, error: '127.0.0.1 is a loopback address; pagegrade does not analyse private networks.', linked_from: [at('/')], linked_from_count: 1 },
        { url: 'https://loop.test/', status_code: 301, error: 'too many redirects', linked_from: [at('/a')], linked_from_count: 1 },
        { url: 'https://other.test/down', status_code: 503, error: null, linked_from: [at('/a')], linked_from_count: 1 },
      ],
    });
  });

  it('leaves alone URLs not checked: past the cap, or still waiting', async () => {
    const db = database().db;
    const site = await withExternals(db, await siteOf(db, { '/': {} }), {
      'https://other.test/later': { state: 'done', reason: 'limit', status_code: null, from: ['/'] },
      'https://other.test/waiting': { state: 'pending', status_code: null, from: ['/'] },
    });
    expect((await brokenExternalLinks.run(site)).count).toBe(0);
  });

  it(`caps items, and names the first ${MAX_LINKERS_PER_EXTERNAL} linking pages, keeping the counts`, async () => {
    const db = database().db;
    const pages: Record<string, object> = {};
    const from = Array.from({ length: MAX_LINKERS_PER_EXTERNAL + 3 }, (_, i) => `/from-${String(i).padStart(2, '0')}`);
    for (const path of from) pages[path] = {};
    const externals: Record<string, Checked> = {};
    for (let i = 0; i < MAX_SITE_ITEMS + 5; i++) externals[`https://other.test/gone-${String(i).padStart(3, '0')}`] = { status_code: 404, from: i === 7 ? from : from.slice(0, 2) };
    const outcome = await brokenExternalLinks.run(await withExternals(db, await siteOf(db, pages), externals));
    expect(outcome.count).toBe(MAX_SITE_ITEMS + 5);
    expect(outcome.items).toHaveLength(MAX_SITE_ITEMS);
    expect(outcome.items[0]).toEqual({
      url: 'https://other.test/gone-007',
      status_code: 404,
      error: null,
      linked_from: from.slice(0, MAX_LINKERS_PER_EXTERNAL).map(at),
      linked_from_count: MAX_LINKERS_PER_EXTERNAL + 3,
    });
    expect(outcome.items[1]).toMatchObject({ url: 'https://other.test/gone-000', linked_from_count: 2 });
  });

  it('applies only to a crawl that checks its external links', () => {
    expect(brokenExternalLinksApply({ external: 1 })).toBe(true);
    expect(brokenExternalLinksApply({ external: 0 })).toBe(false);
  });
});
