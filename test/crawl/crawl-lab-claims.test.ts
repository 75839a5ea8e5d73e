// The claims on a lab crawl's chosen pages (docs/lab.md, "How they are made"), on a clock the test
// sets: the choice is stored once; one page of a crawl is audited at a time, in the order of the
// picks; a claim whose lease ran out (its process died) is taken again with the next number, and only
// the latest claim may renew or store; a crawl's candidates are its analysed 2xx HTML pages, read a
// depth at a time.
import { expect, it } from 'vitest';
import { forEachDialect } from '../support/databases.ts';
import { newOrganizationId, reportInsert } from '../support/repository-fixtures.ts';
import { insertReport } from '../../src/repositories/report.repository.ts';
import type { DbExecutor } from '../../src/repositories/executor.ts';
import {
  claimLabPage,
  listLabPages,
  readLabCandidates,
  recordLabPage,
  renewLabLease,
  storeLabChoice,
  type LabClaim,
} from '../../src/repositories/crawl-lab.repository.ts';

const at = (minute: number, second = 0) => `2026-12-03T12:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}.000Z`;
const limits = (minute: number) => ({ now: at(minute), leaseUntil: at(minute + 1) });
let crawls = 0;

async function labCrawl(db: DbExecutor) {
  const project = `lab-claims-${process.pid}-${++crawls}.test`;
  const row = { organization_id: await newOrganizationId(db), url: `https://${project}/`, project, state: 'running' as const, max_pages: 10, max_depth: 3, use_sitemap: 0, privacy: 0, render: 0, created_at: at(0), lab_profile: 'mobile', lab_pages: 3 };
  const { id } = await db.insertInto('crawls').values(row).returning('id').executeTakeFirstOrThrow();
  // One report stands for every page's: what is read here is only that they have a run.
  const reportId = await insertReport(db, reportInsert(row.organization_id, { url: row.url }));
  const page = (path: string, fields: Record<string, unknown>) => ({ crawl_id: id, url: `https://${project}${path}`, state: 'done' as const, html: 1, status_code: 200, report_id: reportId, run_number: 1, ...fields });
  const pages = await db
    .insertInto('crawl_pages')
    .values([
      page('/', { depth: 0 }),
      page('/a', { depth: 1 }),
      page('/gone', { depth: 1, html: 0, status_code: 404 }),
      page('/moved', { depth: 1, html: 0, status_code: 301 }),
      page('/b', { depth: 1 }),
      page('/sitemap-only', { depth: null }),
    ])
    .returning(['id', 'url'])
    .execute();
  return { id: Number(id), project, pages, reportId };
}

forEachDialect('lab crawl claims', (database) => {
  it('reads a depth\'s analysed 2xx HTML pages with their run; not the others', async () => {
    const { db } = database();
    const crawl = await labCrawl(db);
    // A page stored before run numbers were kept is no candidate either.
    await db.updateTable('crawl_pages').set({ run_number: null }).where('crawl_id', '=', crawl.id).where('url', '=', `https://${crawl.project}/b`).execute();
    const paths = async (depth: number | null) => (await readLabCandidates(db, crawl.id, depth, 0)).candidates.map((candidate) => new URL(candidate.url).pathname);
    expect(await paths(0)).toEqual(['/']);
    expect(await paths(1)).toEqual(['/a']);
    expect(await paths(null)).toEqual(['/sitemap-only']);
    expect((await readLabCandidates(db, crawl.id, 1, 0)).lastId).toBeNull();
  });

  it('claims one page at a time in pick order, takes a lapsed claim again, and lets only the latest claim renew or store', async () => {
    const { db } = database();
    const crawl = await labCrawl(db);
    const chosen = crawl.pages.filter(({ url }) => ['/', '/a', '/b'].includes(new URL(url).pathname)).map((page, pick) => ({
      pageId: Number(page.id), url: page.url, reportId: crawl.reportId, runNumber: 1, pick, template: new URL(page.url).pathname, templateRank: pick,
    }));
    const empty = JSON.stringify({ pages: 0, templates: [] });
    expect(await db.transaction().execute((trx) => storeLabChoice(trx, crawl.id, chosen, empty))).toBe(true);
    // Chosen once: a second job's choice is not stored.
    expect(await db.transaction().execute((trx) => storeLabChoice(trx, crawl.id, chosen.slice(0, 1), empty))).toBe(false);
    expect((await listLabPages(db, crawl.id)).map((row) => row.pick)).toEqual([0, 1, 2]);

    const first = await claimLabPage(db, crawl.id, limits(0));
    expect(first).toMatchObject({ claimed: { pick: 0, attempts: 1 } });
    // Another job, while the claim lives: it waits for the lease.
    expect(await claimLabPage(db, crawl.id, limits(0))).toEqual({ busy: true, retryAt: at(1) });
    const outcome = { audited: 1, error: null, lcp_ms: 900, cls: 0, tbt_ms: 0, accessibility_score: 90 };
    const firstClaim = (first as { claimed: LabClaim }).claimed;
    expect(await recordLabPage(db, firstClaim, outcome)).toBe(true);
    expect(await recordLabPage(db, firstClaim, outcome)).toBe(false);

    const second = (await claimLabPage(db, crawl.id, limits(2))) as { claimed: LabClaim };
    expect(second.claimed).toMatchObject({ pick: 1, attempts: 1 });
    expect(await renewLabLease(db, second.claimed, at(3, 30))).toBe(true);
    // Renewed: still busy a minute later; past the renewed lease its process is thought dead.
    expect(await claimLabPage(db, crawl.id, limits(3))).toEqual({ busy: true, retryAt: at(3, 30) });
    const retaken = (await claimLabPage(db, crawl.id, limits(4))) as { claimed: LabClaim };
    expect(retaken.claimed).toMatchObject({ pick: 1, attempts: 2 });
    expect(await renewLabLease(db, second.claimed, at(6))).toBe(false);
    expect(await recordLabPage(db, second.claimed, outcome)).toBe(false);
    expect(await recordLabPage(db, retaken.claimed, outcome)).toBe(true);

    const third = (await claimLabPage(db, crawl.id, limits(5))) as { claimed: LabClaim };
    expect(third.claimed.pick).toBe(2);
    expect(await recordLabPage(db, third.claimed, { ...outcome, audited: 0, error: 'could not load' })).toBe(true);
    expect(await claimLabPage(db, crawl.id, limits(6))).toEqual({ finished: true });
    expect((await listLabPages(db, crawl.id)).map((row) => [row.pick, row.state, row.attempts, row.audited])).toEqual([
      [0, 'done', 1, 1],
      [1, 'done', 2, 1],
      [2, 'done', 1, 0],
    ]);
  });
});
