// The stored list item (summary_json) is made on every write from the row as it is after the write,
// so what lists and show send as text is what the column-by-column view would have made.
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { newUserId, reportInsert } from '../../test/support/repository-fixtures.ts';
import { toReport, toReportSummary } from '../services/report-view.ts';
import type { DbExecutor } from './executor.ts';
import {
  findReport,
  findReportJson,
  insertReport,
  insertReportsBulk,
  listReportItems,
  listReports,
  updateReport,
  type ReportInsert,
  type ReportListOptions,
} from './report.repository.ts';

const NOW = '2026-11-21T10:00:00.000Z';
const LATER = '2026-11-21T12:30:00.000Z';

/** A report of the shop whose page facts and results carry a redirect and quoted text. */
function report(userId: number, path: string, overrides: Partial<ReportInsert> = {}): ReportInsert {
  const url = `https://shop.example/${path}`;
  return reportInsert(userId, {
    url,
    page: JSON.stringify({ final_url: url, status_code: 200, redirects: [{ url: `${url}?a`, status_code: 301 }], charset: 'utf-8' }),
    results: '{"title":{"passed":true,"importance":"high","category":"seo","value":"Shop \\"quoted\\"","errors":null}}',
    ...overrides,
  });
}

const FIRST_PAGE: ReportListOptions = { sortBy: 'url', sort: 'asc', limit: 10, offset: 0 };

/** What the column-by-column view makes of the same page. */
async function viewedPage(db: DbExecutor, userId: number, options: ReportListOptions) {
  return (await listReports(db, userId, options)).map(toReportSummary);
}

forEachDialect('stored report summaries', (database) => {
  it('lists each item as the JSON of its columns, in the same order, for every filter', async () => {
    const { db } = database();
    const owner = await newUserId(db);
    await insertReport(db, report(owner, 'b', { result: 'bad', score: 12, issues_high: 4 }));
    await insertReport(db, report(owner, 'Ünïcode/"quotes"\\', { privacy: 2, password_hash: 'scrypt$x' }));
    await insertReportsBulk(db, [report(owner, 'a', { result: 'decent', score: 70 }), report(owner, 'c')]);
    await insertReport(db, report(await newUserId(db), 'other-account'));

    for (const options of [FIRST_PAGE, { ...FIRST_PAGE, result: 'good' as const }, { ...FIRST_PAGE, search: 'ü', sort: 'desc' as const }]) {
      const items = await listReportItems(db, owner, options);
      expect(items.map((item) => JSON.parse(item))).toEqual(await viewedPage(db, owner, options));
    }
    expect((await listReportItems(db, owner, FIRST_PAGE)).length).toBe(4);
  });

  it('keeps the stored item in step with every update, and show sends the item with its results', async () => {
    const { db } = database();
    const owner = await newUserId(db);
    const id = await insertReport(db, report(owner, 'x'));

    await updateReport(db, owner, id, { privacy: 2, password_hash: 'scrypt$y', updated_at: LATER });
    const regenerated = { result: 'bad' as const, score: 20, issues_high: 5, page: '{"final_url":"https://shop.example/x","status_code":404}' };
    await updateReport(db, owner, id, { ...regenerated, results: '{"h1":{"passed":false}}', generated_at: LATER, updated_at: LATER });

    const [item] = await listReportItems(db, owner, FIRST_PAGE);
    expect(JSON.parse(item)).toEqual(toReportSummary((await listReports(db, owner, FIRST_PAGE))[0]));
    expect(JSON.parse(item)).toMatchObject({ id, password: true, result: 'bad', score: 20, page: { status_code: 404 }, updated_at: LATER });

    const shown = await findReportJson(db, owner, id);
    expect(JSON.parse(shown!)).toEqual(toReport((await findReport(db, owner, id))!));
    expect(JSON.parse(shown!).results).toEqual({ h1: { passed: false } });
  });

  it('shows nothing for another account, and an update of another account\'s report changes nothing', async () => {
    const { db } = database();
    const owner = await newUserId(db);
    const stranger = await newUserId(db);
    const id = await insertReport(db, report(owner, 'mine'));
    expect(await findReportJson(db, stranger, id)).toBeUndefined();
    expect(await updateReport(db, stranger, id, { privacy: 1, updated_at: LATER })).toBe(0);
    expect(JSON.parse((await listReportItems(db, owner, FIRST_PAGE))[0])).toMatchObject({ privacy: 0, updated_at: NOW });
  });
});
