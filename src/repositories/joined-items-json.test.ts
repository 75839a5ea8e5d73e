// A page's items joined into one JSON text (on SQLite by the database itself) must be exactly the page
// read as rows: the same items, in the same order, for every filter, sort and page, whatever they hold.
import { describe, expect, it } from 'vitest';
import { REPORT_FILTERS, REPORT_SORTS } from '../../test/support/report-list-shapes.ts';
import { forEachDialect } from '../../test/support/databases.ts';
import { newUserId, reportInsert } from '../../test/support/repository-fixtures.ts';
import type { ReportResult } from '../db/tables/report.table.ts';
import type { DbExecutor } from './executor.ts';
import { fromItemTexts, fromJoinedRow, type JoinedItems } from './joined-items-json.ts';
import { insertProjectsBulk, listProjectItems, listProjectItemsJoined, type ProjectInsert } from './project.repository.ts';
import { insertReport, insertReportsBulk, listReportItems, listReportItemsJoined, type ReportListOptions } from './report.repository.ts';

const VERDICTS: ReportResult[] = ['good', 'decent', 'bad'];

/** What the rows read one by one make of the page. */
async function rowsJoined(db: DbExecutor, userId: number, options: ReportListOptions) {
  const items = await listReportItems(db, userId, options);
  return { count: items.length, json: items.join(',') };
}

function asText(joined: JoinedItems) {
  return { count: joined.count, json: joined.json.toString() };
}

/** Reports over projects a.com and b.com, every verdict, some urls with "pricing", in no url order. */
async function accountWithVariedReports(db: DbExecutor, reports: number): Promise<number> {
  const owner = await newUserId(db);
  await insertReportsBulk(
    db,
    Array.from({ length: reports }, (_, index) => {
      const host = index % 2 === 0 ? 'a.com' : 'b.com';
      const path = `${index % 5 === 0 ? 'pricing' : 'page'}-${(index * 37) % reports}`;
      return reportInsert(owner, {
        url: `https://${host}/${path}`,
        result: VERDICTS[index % 3],
        score: (index * 13) % 101,
        generated_at: `2026-11-${String(1 + (index % 28)).padStart(2, '0')}T10:00:00.000Z`,
      });
    }),
  );
  return owner;
}

describe('joined items from an aggregate row or from item texts', () => {
  it('makes an empty page of an aggregate over no rows, and keeps the count and text of one over rows', () => {
    expect(fromJoinedRow({ count: 0, items: null })).toEqual({ count: 0, json: '' });
    expect(fromJoinedRow(undefined)).toEqual({ count: 0, json: '' });
    const bytes = Buffer.from('{"id":1},{"id":2}');
    expect(fromJoinedRow({ count: 2, items: bytes })).toEqual({ count: 2, json: bytes });
    expect(fromItemTexts(['{"id":1}', '{"id":2}'])).toEqual({ count: 2, json: '{"id":1},{"id":2}' });
  });
});

forEachDialect('joined list items', (database) => {
  it('joins every filter set, sort and direction into the page read as rows, on the first, a middle and a past-the-end page', async () => {
    const { db } = database();
    const owner = await accountWithVariedReports(db, 90);
    await accountWithVariedReports(db, 10); // another account's reports never show
    for (const filters of REPORT_FILTERS) {
      for (const sortBy of REPORT_SORTS) {
        for (const sort of ['asc', 'desc'] as const) {
          for (const [limit, offset] of [
            [10, 0],
            [7, 14],
            [25, 500],
          ]) {
            const options = { ...filters, sortBy, sort, limit, offset };
            const joined = asText(await listReportItemsJoined(db, owner, options));
            expect(joined, JSON.stringify(options)).toEqual(await rowsJoined(db, owner, options));
          }
        }
      }
    }
    // The shapes above are not all empty: the middle page of the unfiltered list is full.
    expect((await listReportItemsJoined(db, owner, { sortBy: 'url', sort: 'asc', limit: 7, offset: 14 })).count).toBe(7);
  });

  it('joins a deep page (its ids read first) into the page read as rows', async () => {
    const { db } = database();
    const owner = await accountWithVariedReports(db, 2_200);
    for (const options of [
      { sortBy: 'url', sort: 'asc', limit: 100, offset: 1_000 },
      { sortBy: 'generated_at', sort: 'desc', limit: 50, offset: 1_020, project: 'a.com' },
      { sortBy: 'id', sort: 'desc', limit: 100, offset: 2_150 },
    ] as const) {
      const joined = asText(await listReportItemsJoined(db, owner, options));
      expect(joined, JSON.stringify(options)).toEqual(await rowsJoined(db, owner, options));
      expect(joined.count, JSON.stringify(options)).toBeGreaterThan(0);
    }
  });

  it('keeps text beyond ASCII, quotes and backslashes byte for byte, and parses as the list items', async () => {
    const { db } = database();
    const owner = await newUserId(db);
    const url = 'https://b.com/Ünïcödé/"quoted"\\/日本語';
    await insertReport(db, reportInsert(owner, { url, page: JSON.stringify({ final_url: `${url}?ü=1`, status_code: 200 }) }));
    await insertReport(db, reportInsert(owner, { url: 'https://b.com/😀' }));
    const options: ReportListOptions = { sortBy: 'url', sort: 'asc', limit: 10, offset: 0 };
    const joined = await listReportItemsJoined(db, owner, options);
    expect(asText(joined)).toEqual(await rowsJoined(db, owner, options));
    const items = JSON.parse(`[${joined.json.toString()}]`) as Array<{ url: string; page: { final_url: string } }>;
    expect(items.map((item) => item.url)).toEqual(['https://b.com/Ünïcödé/"quoted"\\/日本語', 'https://b.com/😀']);
    expect(items[0].page.final_url).toBe(`${url}?ü=1`);
  });

  it("joins every project list shape into the page read as rows, names beyond ASCII included", async () => {
    const { db } = database();
    const owner = await newUserId(db);
    const names = Array.from({ length: 40 }, (_, index) => (index % 7 === 0 ? `shop-${index}.bücher.example` : `site-${(index * 17) % 40}.example`));
    const projects: ProjectInsert[] = names.map((name, index) => ({
      user_id: owner,
      name,
      reports_count: index + 1 + (index % 3),
      good_count: index,
      decent_count: 1,
      bad_count: index % 3,
      created_at: `2026-10-${String(1 + (index % 28)).padStart(2, '0')}T10:00:00.000Z`,
      updated_at: '2026-11-21T10:00:00.000Z',
    }));
    await insertProjectsBulk(db, projects);
    for (const search of [undefined, 'site-1', 'bücher', 'nothing-matches']) {
      for (const sortBy of ['created_at', 'project'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          for (const [limit, offset] of [
            [10, 0],
            [9, 27],
          ]) {
            const options = { search, sortBy, sort, limit, offset };
            const rows = await listProjectItems(db, owner, options);
            const joined = asText(await listProjectItemsJoined(db, owner, options));
            expect(joined, JSON.stringify(options)).toEqual({ count: rows.length, json: rows.join(',') });
          }
        }
      }
    }
    const all = await listProjectItemsJoined(db, owner, { sortBy: 'project', sort: 'asc', limit: 100, offset: 0 });
    expect((JSON.parse(`[${all.json.toString()}]`) as Array<{ project: string }>).map((item) => item.project)).toEqual([...names].sort());
  });

  it('reads the same page inside a transaction, where SQLite reads go through Kysely', async () => {
    const { db } = database();
    const owner = await accountWithVariedReports(db, 30);
    const options: ReportListOptions = { project: 'b.com', result: 'bad', sortBy: 'url', sort: 'asc', limit: 100, offset: 0 };
    const outside = asText(await listReportItemsJoined(db, owner, options));
    const inside = await db.transaction().execute(async (trx) => asText(await listReportItemsJoined(trx, owner, options)));
    expect(inside).toEqual(outside);
    expect(outside.count).toBe(5);
  });
});
