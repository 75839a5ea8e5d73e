// The claim and the frontier keep a crawl's bounds in the database, whichever process asks
// (docs/crawls.md, "Bounds"): no claim past 2 × max_pages + 50 requests, none of a URL left with a
// reason, URLs without a click depth after the linked ones whatever max_depth, a starting crawl counted
// in flight on its host, and no new row past the room the frontier has left.
import { expect, it } from 'vitest';
import { forEachDialect } from '../support/databases.ts';
import { newOrganizationId } from '../support/repository-fixtures.ts';
import type { DbExecutor } from '../../src/repositories/executor.ts';
import { claimNextPage, type ClaimLimits } from '../../src/repositories/crawl-claim.repository.ts';
import { addFoundUrls, addToFrontier } from '../../src/repositories/crawl-frontier.repository.ts';
import { addHost } from '../../src/repositories/crawl-host.repository.ts';

const NOW = '2026-12-02T10:00:00.000Z';
const limits: ClaimLimits = { now: NOW, leaseUntil: '2026-12-02T10:01:00.000Z', concurrency: 1 };
let hosts = 0;

async function runningCrawl(db: DbExecutor, patch: { max_pages?: number; max_depth?: number; requests?: number; project?: string } = {}) {
  const project = patch.project ?? `bounds-${process.pid}-${++hosts}.test`;
  const row = {
    organization_id: await newOrganizationId(db), url: `https://${project}/`, project, state: 'running' as const, max_pages: 1, max_depth: 1, use_sitemap: 0,
    privacy: 0, render: 0, created_at: NOW, ...patch,
  };
  const { id } = await db.insertInto('crawls').values(row).returning('id').executeTakeFirstOrThrow();
  await addHost(db, project, '2026-12-02T09:00:00.000Z');
  return { ...row, id: Number(id), crawl_delay_ms: 0 };
}

forEachDialect('the bounds the frontier keeps', (database) => {
  it('claims no page once the requests reach 2 × max_pages + 50, and counts each claim as one', async () => {
    const { db } = database();
    const crawl = await runningCrawl(db, { max_pages: 10, requests: 69 });
    await addToFrontier(db, crawl.id, [0, 1, 2].map((n) => ({ url: `${crawl.url}${n}`, depth: 1, inSitemap: false })));
    const first = await claimNextPage(db, crawl, limits);
    expect('claimed' in first).toBe(true);
    const second = await claimNextPage(db, crawl, { ...limits, concurrency: 5 });
    expect(second).toEqual({ idle: true, inFlight: 1 });
    const row = await db.selectFrom('crawls').select('requests').where('id', '=', crawl.id).executeTakeFirstOrThrow();
    expect(row.requests).toBe(70);
  });

  it('gives a page whose claim ran out back to waiting when no request is left for it', async () => {
    const { db } = database();
    const crawl = await runningCrawl(db, { max_pages: 10, requests: 70 });
    await addToFrontier(db, crawl.id, [{ url: crawl.url, depth: 0, inSitemap: false }]);
    await db.updateTable('crawl_pages').set({ state: 'fetching', lease_until: '2026-12-02T09:59:00.000Z', attempts: 1 }).where('crawl_id', '=', crawl.id).execute();
    expect(await claimNextPage(db, crawl, limits)).toEqual({ idle: true, inFlight: 0 });
    const row = await db.selectFrom('crawl_pages').select(['state', 'lease_until']).where('crawl_id', '=', crawl.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'pending', lease_until: null });
  });

  it('never claims a URL left with a reason, and takes URLs without a depth after the linked ones, whatever max_depth', async () => {
    const { db } = database();
    const crawl = await runningCrawl(db, { max_pages: 10, max_depth: 0 });
    await addToFrontier(db, crawl.id, [
      { url: `${crawl.url}from-sitemap`, depth: null, inSitemap: true },
      { url: `${crawl.url}too-many-redirects`, depth: 0, inSitemap: false, redirects: 11, reason: 'limit' },
      { url: `${crawl.url}too-deep`, depth: 1, inSitemap: false },
      { url: crawl.url, depth: 0, inSitemap: false },
    ]);
    const taken: string[] = [];
    for (;;) {
      const claim = await claimNextPage(db, crawl, { ...limits, concurrency: 10 });
      if (!('claimed' in claim)) break;
      taken.push(claim.claimed.url.slice(crawl.url.length));
      // Done at once, as if fetched: the next claim sees no linked page in flight.
      await db.updateTable('crawl_pages').set({ state: 'done' }).where('id', '=', claim.claimed.id).execute();
    }
    expect(taken).toEqual(['', 'from-sitemap']);
  });

  it('counts a crawl whose start requests run as one request in flight on its host', async () => {
    const { db } = database();
    const crawl = await runningCrawl(db, { max_pages: 10 });
    await addToFrontier(db, crawl.id, [{ url: crawl.url, depth: 0, inSitemap: false }]);
    const starting = await runningCrawl(db, { project: crawl.project });
    await db.updateTable('crawls').set({ state: 'queued', start_lease_until: '2026-12-02T10:00:30.000Z' }).where('id', '=', starting.id).execute();
    expect(await claimNextPage(db, crawl, limits)).toEqual({ busy: true, retryAt: NOW });
    // Its lease run out (its process died): the host is free again.
    expect('claimed' in (await claimNextPage(db, crawl, { ...limits, now: '2026-12-02T10:00:31.000Z' }))).toBe(true);
  });

  it('stores no more new URLs than the room left, and gives the id of every stored one', async () => {
    const { db } = database();
    const crawl = await runningCrawl(db, { max_pages: 10 });
    await addToFrontier(db, crawl.id, [{ url: `${crawl.url}known`, depth: 3, inSitemap: false }]);
    const entries = ['known', 'a', 'b', 'c', 'd'].map((path) => ({ url: `${crawl.url}${path}`, depth: 1, inSitemap: false }));
    const found = await db.transaction().execute((trx) => addFoundUrls(trx, crawl.id, entries, 2));
    expect({ added: found.added, unstored: found.unstored }).toEqual({ added: 2, unstored: 2 });
    expect([...found.ids.keys()].map((url) => url.slice(crawl.url.length)).sort()).toEqual(['a', 'b', 'known']);
    const known = await db.selectFrom('crawl_pages').select('depth').where('crawl_id', '=', crawl.id).where('url', '=', `${crawl.url}known`).executeTakeFirstOrThrow();
    // Found again nearer the start page: claimed sooner.
    expect(known.depth).toBe(1);
  });
});
