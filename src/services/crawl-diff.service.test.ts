// The crawl diff service over stored crawls larger than one step of its page walk (PAGE_STEP rows a
// statement): the counts and status changes come out as if every page were held, unvisited rows
// interleaved with the visited ones are left out, and the default `from` is the latest done crawl of
// the same project and url created before.
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { forEachDialect } from '../../test/support/databases.ts';
import { newOrganizationId } from '../../test/support/repository-fixtures.ts';
import type { Database } from '../db/database.ts';
import type { CrawlState } from '../db/tables/crawl.table.ts';
import { insertCrawl } from '../repositories/crawl.repository.ts';
import { storeFindings } from '../repositories/crawl-issue.repository.ts';
import { statementChunks } from '../repositories/executor.ts';
import { createCrawlDiffService, CrawlNotFinishedError } from './crawl-diff.service.ts';
import { ValidationError } from './errors.ts';

const at = (path: string) => `https://shop.example${path}`;
const page = (i: number) => `/p-${String(i).padStart(4, '0')}`;

async function crawl(db: Kysely<Database>, organizationId: number, createdAt: string, fields: { url?: string; state?: CrawlState; score?: number } = {}): Promise<number> {
  return insertCrawl(db, {
    organization_id: organizationId,
    url: fields.url ?? at('/'),
    project: 'shop.example',
    state: fields.state ?? 'done',
    max_pages: 5000,
    max_depth: 10,
    use_sitemap: 0,
    privacy: 0,
    render: 0,
    score: fields.score ?? 80,
    result: 'decent',
    created_at: createdAt,
    finished_at: createdAt,
  });
}

type PageRow = { url: string; state: 'done' | 'pending' | 'blocked'; status_code: number | null };

async function pages(db: Kysely<Database>, crawlId: number, rows: PageRow[]): Promise<void> {
  for (const chunk of statementChunks(rows.map((row) => ({ crawl_id: crawlId, ...row })))) await db.insertInto('crawl_pages').values(chunk).execute();
}

const broken = (path: string, from: string) => ({ url: at(path), status_code: 404, error: null, linked_from: [at(from)], linked_from_count: 1 });

forEachDialect('crawl diffs of large stored crawls', (database) => {
  it('walks both crawls in steps: pages added, removed, the first 100 status changes by URL, and findings judged by their pages', async () => {
    const { db } = database();
    const organizationId = await newOrganizationId(db);
    const from = await crawl(db, organizationId, '2026-11-21T10:00:00.000Z', { score: 90 });
    // Neither a crawl that failed, nor one of another url, nor a later one is the default from.
    await crawl(db, organizationId, '2026-11-21T11:00:00.000Z', { state: 'failed' });
    await crawl(db, organizationId, '2026-11-21T11:30:00.000Z', { url: at('/other') });
    const to = await crawl(db, organizationId, '2026-11-21T12:00:00.000Z', { score: 70 });
    await crawl(db, organizationId, '2026-11-21T13:00:00.000Z');

    // from visited p-0000..p-2499; to visited p-0500..p-2999, p-1000..p-1149 answering 500 now. Rows
    // never visited lie between them in URL order (p-NNNN-x sorts right after p-NNNN).
    const fromRows: PageRow[] = [];
    const toRows: PageRow[] = [];
    for (let i = 0; i < 3000; i++) {
      if (i < 2500) fromRows.push({ url: at(page(i)), state: 'done', status_code: 200 });
      if (i >= 500) toRows.push({ url: at(page(i)), state: 'done', status_code: i >= 1000 && i < 1150 ? 500 : 200 });
      if (i % 2 === 0) fromRows.push({ url: at(`${page(i)}-x`), state: 'pending', status_code: null });
      if (i % 3 === 0) toRows.push({ url: at(`${page(i)}-x`), state: i % 2 === 0 ? 'blocked' : 'pending', status_code: null });
    }
    await pages(db, from, fromRows);
    await pages(db, to, toRows);
    await storeFindings(db, from, [{ check_id: 'broken_links', importance: 'high', count: 2, items: JSON.stringify([broken('/gone', page(700)), broken('/lost', page(1))]) }]);
    await storeFindings(db, to, [{ check_id: 'broken_links', importance: 'high', count: 1, items: JSON.stringify([broken('/new', page(2600))]) }]);

    const service = createCrawlDiffService(db, { alertScoreDrop: 10 });
    const diff = await service.diff(organizationId, to);
    expect(diff.from.id).toBe(from);
    expect(diff.score_delta).toBe(-20);
    expect(diff.pages.added).toBe(500);
    expect(diff.pages.removed).toBe(500);
    expect(diff.pages.status_changed).toHaveLength(100);
    expect(diff.pages.status_changed[0]).toEqual({ url: at(page(1000)), from: 200, to: 500 });
    expect(diff.pages.status_changed.at(-1)).toEqual({ url: at(page(1099)), from: 200, to: 500 });
    // /gone was linked from p-0700, visited by both; /lost from p-0001, which the later crawl did not visit.
    expect(diff.issues).toEqual([{ id: 'broken_links', importance: 'high', new: [broken('/new', page(2600))], fixed: [broken('/gone', page(700))], persisting: 0, not_comparable: 1 }]);

    const regression = await service.regression(organizationId, to);
    expect(regression?.reasons).toEqual(['the score fell by 20 (90 → 70)', 'broken_links has 1 new finding (high importance)']);
    expect(await service.regression(organizationId, from)).toBeNull();
    expect((await service.choices(organizationId, to)).map((choice) => choice.id)).not.toContain(to);
  });

  it('refuses a crawl not done (409), a from that is the crawl or not done or missing (422), and another account\'s crawls (404)', async () => {
    const { db } = database();
    const organizationId = await newOrganizationId(db);
    const service = createCrawlDiffService(db, { alertScoreDrop: 10 });
    const only = await crawl(db, organizationId, '2026-11-21T10:00:00.000Z');
    const running = await crawl(db, organizationId, '2026-11-21T11:00:00.000Z', { state: 'running' });
    await expect(service.diff(organizationId, running)).rejects.toThrow(CrawlNotFinishedError);
    await expect(service.diff(organizationId, only)).rejects.toThrow(ValidationError);
    await expect(service.diff(organizationId, only, only)).rejects.toThrow(ValidationError);
    await expect(service.diff(organizationId, only, running)).rejects.toThrow(/has not finished/);
    const stranger = await newOrganizationId(db);
    await expect(service.diff(stranger, only)).rejects.toThrow('Resource not found.');
    await expect(service.diff(organizationId, only, await crawl(db, stranger, '2026-11-21T09:00:00.000Z'))).rejects.toThrow('Resource not found.');
  });
});
